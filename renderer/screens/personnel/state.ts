// The personnel workspace's own state, kept outside its components so that switching to another
// workspace and back finds the same view, search, filters, sort, open person and due choices.
import { create } from 'zustand';
import type { CallArgs, PERSON_STATUSES } from '../../contract';

export type PersonStatus = (typeof PERSON_STATUSES)[number];
export type PersonnelSort = NonNullable<CallArgs<'personnel.list'>['sort']>;

export interface PersonnelFilter {
  search: string;
  /** The statuses shown; none chosen: every status. */
  status: PersonStatus[];
  /** A group's name; '' = any. */
  group: string;
  /** A qualification's short name (or name); '' = any. */
  qualification: string;
}

/** The workspace's two views: everyone, and what falls due. */
export type PersonnelView = 'people' | 'due';

/** The due list's choices: how far ahead (months; 0: expired only), the never read shown. */
export interface DueChoice {
  months: number;
  unread: boolean;
}

interface PersonnelUi {
  view: PersonnelView;
  due: DueChoice;
  filter: PersonnelFilter;
  sort: PersonnelSort;
  openId: string | null;
  setView(view: PersonnelView): void;
  setDue(change: Partial<DueChoice>): void;
  setFilter(change: Partial<PersonnelFilter>): void;
  setSort(sort: PersonnelSort): void;
  setOpen(id: string | null): void;
}

export const usePersonnelUi = create<PersonnelUi>()((set) => ({
  view: 'people',
  due: { months: 3, unread: true },
  filter: { search: '', status: [], group: '', qualification: '' },
  sort: 'name',
  openId: null,
  setView: (view) => set({ view }),
  setDue: (change) => set((state) => ({ due: { ...state.due, ...change } })),
  setFilter: (change) => set((state) => ({ filter: { ...state.filter, ...change } })),
  setSort: (sort) => set({ sort }),
  setOpen: (openId) => set({ openId }),
}));
