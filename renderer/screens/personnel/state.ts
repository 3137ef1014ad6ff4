// The personnel workspace's own state, kept outside its components so that switching to another
// workspace and back finds the same search, filters, sort and open person.
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

interface PersonnelUi {
  filter: PersonnelFilter;
  sort: PersonnelSort;
  openId: string | null;
  setFilter(change: Partial<PersonnelFilter>): void;
  setSort(sort: PersonnelSort): void;
  setOpen(id: string | null): void;
}

export const usePersonnelUi = create<PersonnelUi>()((set) => ({
  filter: { search: '', status: [], group: '', qualification: '' },
  sort: 'name',
  openId: null,
  setFilter: (change) => set((state) => ({ filter: { ...state.filter, ...change } })),
  setSort: (sort) => set({ sort }),
  setOpen: (openId) => set({ openId }),
}));
