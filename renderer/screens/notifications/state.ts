// The notifications workspace's filter, kept outside its components so that switching to another
// workspace and back finds it as it was.
import { create } from 'zustand';

interface NotificationsUi {
  unreadOnly: boolean;
  setUnreadOnly(unreadOnly: boolean): void;
}

export const useNotificationsUi = create<NotificationsUi>()((set) => ({
  unreadOnly: false,
  setUnreadOnly: (unreadOnly) => set({ unreadOnly }),
}));
