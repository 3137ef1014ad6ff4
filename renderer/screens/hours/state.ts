// The hours workspace's dialog request, kept outside its components so that another part of the
// app (search everything: an occasion) can open a new entry in it.
import { create } from 'zustand';
import type { HoursDialogRequest } from './HoursDialog';

interface HoursUi {
  dialog: HoursDialogRequest | null;
  setDialog(dialog: HoursDialogRequest | null): void;
}

export const useHoursUi = create<HoursUi>()((set) => ({
  dialog: null,
  setDialog: (dialog) => set({ dialog }),
}));
