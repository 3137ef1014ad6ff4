// The hours workspace's state kept outside its components: the dialog request (so that another
// part of the app, search everything's occasion, can open a new entry in it), the view (one's own
// hours or, for the office, everyone's) and the office view's filter, both kept across workspaces.
import { create } from 'zustand';
import { serviceDay } from '../../format';
import type { HoursDialogRequest } from './HoursDialog';

export type HoursView = 'own' | 'all';

/** The office view's filter; each `…Text` is what its picker shows. */
export interface OfficeHoursFilter {
  userId: string | null;
  userText: string;
  anlassId: string | null;
  anlassText: string;
  typId: string;
  /** Days YYYY-MM-DD ('' for none), as typed until they are days. */
  from: string;
  until: string;
  /** '' both, approved (freigegeben) or open. */
  state: '' | 'approved' | 'open';
}

/** This year, the period an office looks at first. */
export function initialOfficeFilter(year = Number(serviceDay().slice(0, 4))): OfficeHoursFilter {
  return {
    userId: null,
    userText: '',
    anlassId: null,
    anlassText: '',
    typId: '',
    from: `${year}-01-01`,
    until: `${year}-12-31`,
    state: '',
  };
}

interface HoursUi {
  dialog: HoursDialogRequest | null;
  setDialog(dialog: HoursDialogRequest | null): void;
  view: HoursView;
  setView(view: HoursView): void;
  filter: OfficeHoursFilter;
  setFilter(patch: Partial<OfficeHoursFilter>): void;
  resetFilter(): void;
}

export const useHoursUi = create<HoursUi>()((set) => ({
  dialog: null,
  setDialog: (dialog) => set({ dialog }),
  view: 'own',
  setView: (view) => set({ view }),
  filter: initialOfficeFilter(),
  setFilter: (patch) => set((state) => ({ filter: { ...state.filter, ...patch } })),
  resetFilter: () => set({ filter: initialOfficeFilter() }),
}));
