// The Stammdaten workspace's tab, kept outside its components so that switching to another
// workspace and back finds it as it was.
import { create } from 'zustand';

export type ReferenceTab =
  'organisation' | 'account' | 'taxRates' | 'uvts' | 'courseTypes' | 'forms';

interface ReferenceUi {
  tab: ReferenceTab;
  setTab(tab: ReferenceTab): void;
}

export const useReferenceUi = create<ReferenceUi>()((set) => ({
  tab: 'organisation',
  setTab: (tab) => set({ tab }),
}));
