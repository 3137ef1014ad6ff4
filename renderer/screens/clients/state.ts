// The clients workspace's search and open client, kept outside its components so that switching
// to another workspace and back finds them as they were.
import { create } from 'zustand';

interface ClientsUi {
  search: string;
  openId: string | null;
  setSearch(search: string): void;
  setOpen(openId: string | null): void;
}

export const useClientsUi = create<ClientsUi>()((set) => ({
  search: '',
  openId: null,
  setSearch: (search) => set({ search }),
  setOpen: (openId) => set({ openId }),
}));
