// The OS notifications the host shows when a sync brings new notifications from the service.
// Electron drops a Notification the main process no longer references (its click then reaches
// nobody): each is kept until it closes or fails. Windows shows them only for an app with an
// AppUserModelID, the one the installer's shortcut carries (electron-builder's appId); a
// notification that fails (an unsigned macOS build, Windows without the ID) is said, not thrown.
import type { CoreEvent } from '../sync/contract';
import type { MenuLanguage } from './menu';

/** build/electron-builder.yml's appId: the Start menu shortcut's AppUserModelID on Windows. */
export const APP_USER_MODEL_ID = 'org.vorort.desktop';

/** The part of Electron's Notification the host uses (a stand-in in tests). */
export interface NotificationLike {
  on(event: 'click' | 'close', listener: () => void): unknown;
  on(event: 'failed', listener: (event: unknown, error: string) => void): unknown;
  show(): void;
}

export interface NotifierOptions {
  create: (options: { title: string; body: string }) => NotificationLike;
  isSupported: () => boolean;
  language: () => MenuLanguage;
  onClick: () => void;
  log: (text: string) => void;
}

/** At most this many are kept: the oldest are long gone from the screen. */
const KEPT = 20;

export function createNotifier(options: NotifierOptions) {
  const live = new Set<NotificationLike>();
  const forget = (notification: NotificationLike) => live.delete(notification);
  return {
    /** The notifications kept alive (for tests). */
    live: () => live.size,
    notify(event: CoreEvent): void {
      if (event.type !== 'notifications.new' || event.items.length === 0) return;
      if (!options.isSupported()) return;
      const de = options.language() === 'de';
      const first = event.items[0]?.titel ?? '';
      const body =
        event.items.length === 1
          ? first
          : de
            ? `${event.items.length} neue Benachrichtigungen, zuerst: ${first}`
            : `${event.items.length} new notifications, first: ${first}`;
      const notification = options.create({
        title: de ? 'Vorort: neue Benachrichtigung' : 'Vorort: new notification',
        body,
      });
      notification.on('click', () => options.onClick());
      notification.on('close', () => forget(notification));
      notification.on('failed', (_event, error) => {
        forget(notification);
        options.log(`Vorort: a notification could not be shown: ${error}`);
      });
      live.add(notification);
      if (live.size > KEPT) forget(live.values().next().value as NotificationLike);
      notification.show();
    },
  };
}
