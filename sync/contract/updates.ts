// The contract's part for the desktop app's updates (issue 24): where an update stands, asking to
// install one, checking now; the event that says it changed. The Electron host serves them
// (electron/updates.ts through the session's `updates` option); browser mode and the command
// line have none, and answer `off`.
// Imports zod only: the renderer (a browser) imports this file through sync/contract.ts.
import { z } from 'zod';

export const UPDATE_PHASES = [
  /** No update address set by the organisation (or not the installed app): nothing is asked. */
  'off',
  /** Up to date as of checkedAt, or not checked yet (null). */
  'idle',
  'checking',
  /** An update is being downloaded in the background: version, percent. */
  'downloading',
  /** Downloaded: installed when the app restarts, and only when the person agrees. */
  'ready',
  /** The person agreed and nothing is being sent: the app closes and the update installs. */
  'installing',
  /** The last check or download failed (error); the next check tries again. */
  'failed',
] as const;

export interface UpdateState {
  phase: (typeof UPDATE_PHASES)[number];
  /** The version found (downloading, ready, installing). */
  version: string | null;
  /** How much of it is downloaded, 0 to 100. */
  percent: number | null;
  /**
   * The person agreed to restart and install while changes were being sent to the service: the
   * app restarts once they have arrived (never while they are sent).
   */
  waitingForSync: boolean;
  /** When the address was last asked (ISO). */
  checkedAt: string | null;
  /** Why the last check or download failed, or why the organisation's address is not used. */
  error: string | null;
}

export const UPDATE_OFF: UpdateState = {
  phase: 'off',
  version: null,
  percent: null,
  waitingForSync: false,
  checkedAt: null,
  error: null,
};

/** The host calls' arguments (listed in sync/contract/host.ts's hostCalls). */
export const updateCalls = {
  /** Where the update stands. */
  'updates.state': z.object({}),
  /** Asks the update server now (nothing when off, or while downloading or ready). */
  'updates.check': z.object({}),
  /**
   * The person agrees to restart and install the downloaded update: at once, or once the changes
   * being sent have arrived (waitingForSync). Nothing when no update is ready.
   */
  'updates.install': z.object({}),
} as const;

export interface UpdateCallResults {
  'updates.state': UpdateState;
  'updates.check': UpdateState;
  'updates.install': UpdateState;
}
