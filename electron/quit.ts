// Quitting the Electron app: the replica is closed before the process exits. Closing lets the
// running transaction finish (up to the sync's own time limits), so the windows are hidden first:
// a window that stays on the screen but no longer answers looks like a hang. Windows ends a
// session (log-off, shutdown) with `session-end` on the windows and no before-quit: the same
// close starts there at once, as it does on Linux's and macOS's shutdown (powerMonitor).

/** The part of a BrowserWindow quitting uses. */
export interface QuitWindow {
  isDestroyed(): boolean;
  hide(): void;
}

export interface QuitHost {
  windows: () => QuitWindow[];
  /** Before the windows go: their place for the next start. */
  saveWindowState: () => void;
  stopUpdates: () => void;
  /** The session's close: scheduler stopped, transaction finished, replica closed. */
  close: () => Promise<void>;
  exit: (code: number) => void;
  log: (text: string) => void;
}

export function createQuit(host: QuitHost) {
  let closed = false;
  let closing: Promise<void> | null = null;
  const shutDown = (): Promise<void> =>
    (closing ??= (async () => {
      try {
        host.stopUpdates();
        host.saveWindowState();
        for (const window of host.windows()) if (!window.isDestroyed()) window.hide();
        await host.close();
      } catch (error) {
        host.log(`Vorort: closing: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        closed = true;
        host.exit(0);
      }
    })());
  return {
    /** app's before-quit: held until the replica is closed, then the app exits. */
    beforeQuit(event: { preventDefault(): void }): void {
      if (closed) return;
      event.preventDefault();
      void shutDown();
    },
    /** The OS ends the session (Windows' session-end, powerMonitor's shutdown): close now. */
    sessionEnd: (): Promise<void> => shutDown(),
    /** The app exits without a session to close (a failed start). */
    markClosed(): void {
      closed = true;
    },
  };
}
