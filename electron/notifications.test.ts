// The host's OS notifications with a stand-in for Electron's Notification: each kept until it
// closes or fails (Electron drops one nobody references, and its click with it), a click shows
// the window, a failure is said; the AppUserModelID is the installer's appId.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APP_USER_MODEL_ID, createNotifier, type NotificationLike } from './notifications';

class FakeNotification extends EventEmitter implements NotificationLike {
  shown = false;
  constructor(readonly options: { title: string; body: string }) {
    super();
  }
  show() {
    this.shown = true;
  }
}

function setUp() {
  const created: FakeNotification[] = [];
  const clicks: number[] = [];
  const logs: string[] = [];
  const notifier = createNotifier({
    create: (options) => {
      const notification = new FakeNotification(options);
      created.push(notification);
      return notification;
    },
    isSupported: () => true,
    language: () => 'en',
    onClick: () => clicks.push(1),
    log: (text) => logs.push(text),
  });
  return { notifier, created, clicks, logs };
}

const event = (...titles: string[]) =>
  ({
    type: 'notifications.new',
    items: titles.map((titel, index) => ({ id: String(index), titel })),
  }) as const;

describe('the host’s notifications', () => {
  it('keeps each notification until it closes, and a click shows the window', () => {
    const { notifier, created, clicks } = setUp();
    notifier.notify(event('Kurs abgesagt'));
    notifier.notify(event('a', 'b'));
    expect(created.map((n) => [n.shown, n.options.body])).toEqual([
      [true, 'Kurs abgesagt'],
      [true, '2 new notifications, first: a'],
    ]);
    expect(notifier.live()).toBe(2);
    created[0]?.emit('click');
    expect(clicks).toHaveLength(1);
    created[0]?.emit('close');
    expect(notifier.live()).toBe(1);
    notifier.notify(event());
    expect(created).toHaveLength(2);
  });

  it('says when a notification fails, and lets it go', () => {
    const { notifier, created, logs } = setUp();
    notifier.notify(event('x'));
    created[0]?.emit('failed', {}, 'not signed');
    expect(notifier.live()).toBe(0);
    expect(logs).toEqual(['Vorort: a notification could not be shown: not signed']);
  });

  it('keeps no more than a few', () => {
    const { notifier } = setUp();
    for (let index = 0; index < 50; index += 1) notifier.notify(event(`n${index}`));
    expect(notifier.live()).toBe(20);
  });

  it('uses the installer’s appId as the AppUserModelID', () => {
    const config = readFileSync(new URL('../build/electron-builder.yml', import.meta.url), 'utf8');
    expect(config).toMatch(new RegExp(`^appId: ${APP_USER_MODEL_ID.replaceAll('.', '\\.')}$`, 'm'));
  });
});
