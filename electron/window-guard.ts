// Every web contents of the desktop app (the window, anything it might try to open): no
// navigation, no redirect, no <webview>, no new window. A link the page opens in a new window (the
// course's map with target=_blank, the sign-in page's address) goes to the system browser through
// the opener (Electron's shell.openExternal) when isLinkableAddress allows it (https, or http on
// this computer), and the new window is denied. Takes the web contents and the opener as plain
// interfaces, so it is tested in Node without Electron.
import { isLinkableAddress } from '../sync/contract';

export interface PreventableEvent {
  preventDefault(): void;
}

/** What of Electron's WebContents the guard uses. */
export interface WebContentsLike {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(
    event: 'will-navigate' | 'will-redirect' | 'will-attach-webview',
    listener: (event: PreventableEvent) => void,
  ): unknown;
}

export function lockDown(
  contents: WebContentsLike,
  openExternal: (url: string) => Promise<void>,
): void {
  contents.setWindowOpenHandler(({ url }) => {
    // Never a window of the app's own: the address, when it may be opened, in the system browser.
    if (isLinkableAddress(url)) openExternal(url).catch(() => {});
    return { action: 'deny' };
  });
  for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview'] as const)
    contents.on(event, (navigation) => navigation.preventDefault());
}
