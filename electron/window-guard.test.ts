// The desktop window's guard, with stand-ins for Electron's web contents and shell.openExternal:
// the course's map link (target=_blank, https) goes to the system browser and no window opens;
// anything that is neither https nor on this computer is not opened at all; navigation, redirects
// and <webview> are refused.
import { describe, expect, it } from 'vitest';
import { lockDown, type PreventableEvent, type WebContentsLike } from './window-guard';

function standIn() {
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  const listeners = new Map<string, (event: PreventableEvent) => void>();
  const contents: WebContentsLike = {
    setWindowOpenHandler: (handler) => (openHandler = handler),
    on: (event, listener) => listeners.set(event, listener),
  };
  const opened: string[] = [];
  lockDown(contents, async (url) => {
    opened.push(url);
  });
  return {
    opened,
    /** What Electron does for window.open or a target=_blank link: asks the handler. */
    open: (url: string) => openHandler!({ url }),
    emit(event: string) {
      let prevented = false;
      listeners.get(event)?.({ preventDefault: () => (prevented = true) });
      return prevented;
    },
  };
}

describe("the window's guard", () => {
  it("opens the course's map link in the system browser and denies the window", () => {
    const window = standIn();
    const map = 'https://www.openstreetmap.org/?mlat=51.3&mlon=9.5#map=17/51.3/9.5';
    expect(window.open(map)).toEqual({ action: 'deny' });
    expect(window.opened).toEqual([map]);
  });

  it('opens nothing that is neither https nor on this computer', () => {
    const window = standIn();
    for (const url of [
      'http://example.org/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://server/share',
      'about:blank',
    ])
      expect(window.open(url), url).toEqual({ action: 'deny' });
    expect(window.opened).toEqual([]);
    window.open('http://127.0.0.1:8787/oauth/authorize?x=1');
    expect(window.opened).toEqual(['http://127.0.0.1:8787/oauth/authorize?x=1']);
  });

  it('refuses navigation, redirects and webviews', () => {
    const window = standIn();
    for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview'])
      expect(window.emit(event), event).toBe(true);
  });
});
