// The menus: German for a German system, English otherwise; sync now on Ctrl/Cmd+Shift+S and F5
// (never Ctrl/Cmd+R), sign out; no reload nor developer tools in a release build; the usual
// roles per platform.
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { menuLanguage, menuTemplate, type MenuOptions } from './menu';

function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [
    item,
    ...(Array.isArray(item.submenu) ? items(item.submenu as MenuItemConstructorOptions[]) : []),
  ]);
}

const base: MenuOptions = {
  language: 'de',
  platform: 'linux',
  development: false,
  appName: 'Vorort',
};

describe('the menus', () => {
  it('follow the system’s language', () => {
    expect(menuLanguage('de')).toBe('de');
    expect(menuLanguage('de-AT')).toBe('de');
    expect(menuLanguage('en-US')).toBe('en');
    expect(menuLanguage('fr')).toBe('en');
    expect(menuLanguage('dex')).toBe('en');
  });

  it('offer sync now and sign out in German and English, with their shortcuts and actions', () => {
    for (const [language, sync, signOut] of [
      ['de', 'Jetzt synchronisieren', 'Abmelden …'],
      ['en', 'Sync now', 'Sign out…'],
    ] as const) {
      const calls: string[] = [];
      const all = items(
        menuTemplate(
          { ...base, language },
          {
            syncNow: () => calls.push('sync'),
            signOut: () => calls.push('out'),
            about: () => calls.push('about'),
          },
        ),
      );
      const syncItems = all.filter((item) => item.label === sync);
      expect(syncItems.map((item) => item.accelerator).sort()).toEqual(['CmdOrCtrl+Shift+S', 'F5']);
      const out = all.find((item) => item.label === signOut);
      expect(out).toBeDefined();
      for (const item of [...syncItems, out]) (item?.click as unknown as () => void)();
      expect(calls).toEqual(['sync', 'sync', 'out']);
      expect(all.some((item) => item.accelerator === 'CmdOrCtrl+R')).toBe(false);
    }
  });

  it('have no reload nor developer tools in a release build, both in development', () => {
    const roles = (development: boolean) =>
      items(menuTemplate({ ...base, development }, { syncNow() {}, signOut() {}, about() {} })).map(
        (item) => item.role,
      );
    expect(roles(false)).not.toContain('reload');
    expect(roles(false)).not.toContain('forceReload');
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(true)).toContain('reload');
    expect(roles(true)).toContain('toggleDevTools');
  });

  it('follow the platform: the app menu on macOS, quit in the file menu elsewhere', () => {
    const actions = { syncNow() {}, signOut() {}, about() {} };
    const mac = menuTemplate({ ...base, platform: 'darwin', language: 'en' }, actions);
    expect(mac[0]?.label).toBe('Vorort');
    expect(items(mac).map((item) => item.role)).toEqual(
      expect.arrayContaining(['quit', 'hide', 'copy', 'paste', 'undo', 'front']),
    );
    const linux = menuTemplate(base, actions);
    expect(linux.map((item) => item.label)).toEqual([
      'Datei',
      'Bearbeiten',
      'Ansicht',
      'Fenster',
      'Hilfe',
    ]);
    expect(items(linux).find((item) => item.role === 'quit')?.label).toBe('Beenden');
  });
});
