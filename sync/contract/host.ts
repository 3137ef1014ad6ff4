// The contract's host calls: what a UI asks of the app around the data (the account, the login,
// the demo, sign-out, "sync now", settings, export and the private calendar feed), with a zod
// schema for each call's arguments and the types of the answers and of the host's events. Served by the app session (sync/host/session.ts) over
// every transport, beside the data queries and commands.
// Imports zod only: the renderer (a browser) imports this file through sync/contract.ts.
import { z } from 'zod';
import type { CommandArgs, CommandName, CommandResults } from './commands';
import { exportCalls, type ExportCallResults } from './export';
import { updateCalls, type UpdateCallResults, type UpdateState } from './updates';
import type { QueryArgs, QueryName, QueryResults, SchedulerState } from '../contract';

/** 127.0.0.0/8, localhost and [::1] (the WHATWG URL parser has normalised the host already). */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}

/**
 * What is wrong with an address that a token (or a person) would be sent to, in both languages;
 * null when it is fine: https, or plain http on this computer only (the embedded sandbox, a local
 * proxy): anywhere else a token would travel in clear text. The one rule of the account form, the
 * command line's --server and the openers of links and sign-in pages.
 */
export function serviceAddressProblem(address: string): { en: string; de: string } | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return {
      en: `not an address (URL): ${JSON.stringify(address.slice(0, 60))}`,
      de: `keine Adresse (URL): ${JSON.stringify(address.slice(0, 60))}`,
    };
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    if (isLoopbackHostname(url.hostname)) return null;
    return {
      en: 'plain http is allowed only on this computer (127.0.0.1, localhost, [::1]); use https',
      de: 'unverschlüsseltes http ist nur auf diesem Computer erlaubt (127.0.0.1, localhost, [::1]); bitte https verwenden',
    };
  }
  return {
    en: `must be an https address, not ${url.protocol.replace(/:$/, '')}`,
    de: `muss eine https-Adresse sein, nicht ${url.protocol.replace(/:$/, '')}`,
  };
}

/**
 * Whether an address may be shown as a link (and opened): the service's rule above; anything else
 * (javascript:, file:, http to another machine) is shown as text at most.
 */
export function isLinkableAddress(address: string): boolean {
  return serviceAddressProblem(address) === null;
}

/** An address of the service (serviceAddressProblem's rule), refused in both languages. */
const serviceUrl = z
  .string()
  .max(2000)
  .superRefine((value, ctx) => {
    const problem = serviceAddressProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.en, params: { de: problem.de } });
  });

const clientId = z
  .string()
  .max(200)
  .superRefine((value, ctx) => {
    if (value.trim() === '')
      ctx.addIssue({
        code: 'custom',
        message: 'the client id is missing (the vendor issues it)',
        params: { de: 'die Client-ID fehlt (der Anbieter vergibt sie)' },
      });
  });

/** The settings of an account as the first-run screen and the settings take them. */
export const accountSettings = z.object({
  /** The interface's base URL, path included, e.g. https://api.hiorg-server.de/core/v1. */
  baseUrl: serviceUrl,
  /** The OAuth authorization endpoint (opened in the system browser). */
  authUrl: serviceUrl,
  /** The OAuth token endpoint. */
  tokenUrl: serviceUrl,
  /** The OAuth client id the vendor issued. */
  clientId,
});
export type AccountSettingsInput = z.input<typeof accountSettings>;

/** The real service's addresses (the client id is the vendor's to issue: filled in by the user). */
export const REAL_SERVICE_PRESET = {
  baseUrl: 'https://api.hiorg-server.de/core/v1',
  authUrl: 'https://api.hiorg-server.de/oauth/v1/authorize',
  tokenUrl: 'https://api.hiorg-server.de/oauth/v1/token',
  clientId: '',
} as const;

export const SYNC_PROFILES = ['trainer', 'office'] as const;
export const THEMES = ['system', 'light', 'dark'] as const;
export const LANGUAGES = ['de', 'en'] as const;

/** What settings.update takes: any of the settings, each checked. */
export const appSettingsUpdate = z.strictObject({
  /** trainer: own courses, own hours, reference data; office: everything the account may read. */
  profile: z.enum(SYNC_PROFILES).optional(),
  /** The course window around today, in months (the sync keeps courses inside it). */
  courseMonthsBack: z.number().int().min(0).max(24).optional(),
  courseMonthsAhead: z.number().int().min(1).max(36).optional(),
  language: z.enum(LANGUAGES).optional(),
  theme: z.enum(THEMES).optional(),
});

export interface AppSettings {
  profile: (typeof SYNC_PROFILES)[number];
  courseMonthsBack: number;
  courseMonthsAhead: number;
  /** null: not chosen yet (the system's language, German when it is neither). */
  language: (typeof LANGUAGES)[number] | null;
  theme: (typeof THEMES)[number];
}

export const hostCalls = {
  /** The app's state: first run, signed out, signing in or signed in; the account; the scheduler. */
  'app.state': z.object({}),
  /** Sets the account (signs out of another one first); then `account.login`. */
  'account.configure': accountSettings,
  /** Opens the system browser to sign in; answers when signed in (or login_failed / cancelled). */
  'account.login': z.object({}),
  /**
   * Cancels the running login (its listener closes; `account.login` answers cancelled): signed
   * out again, or still signed in where a login was there before. Nothing running: no change.
   */
  'account.cancelLogin': z.object({}),
  /**
   * Starts the embedded sandbox (demo data in the user data folder) and signs in to it: as the
   * office account (default) or as a trainer (their own courses; the trainer sync profile).
   */
  'account.demo': z.object({ role: z.enum(['office', 'trainer']).default('office') }),
  /** Forgets the tokens; the outbox stays unless deleteLocalData (then the replica goes too). */
  'account.logout': z.object({ deleteLocalData: z.boolean().default(false) }),
  /** What sign-out with deleteLocalData would lose: changes not yet sent, and those refused. */
  'account.pendingLoss': z.object({}),
  /**
   * The demo only: its service stops answering (offline: as at a venue without network, the sync
   * says offline and changes wait in the outbox) or answers again (online: they are sent).
   */
  'demo.service': z.object({ online: z.boolean() }),
  /** Syncs now (the scheduler's state answers). */
  'sync.now': z.object({}),
  /**
   * A window shows the app (or no longer does): sent on visibilitychange and focus, and every
   * 30 s while visible. Only while one does, the session checks the service's reachability every
   * few seconds (the indicator says offline within seconds). A "visible" lasts 60 s unless renewed.
   */
  'app.visible': z.object({ visible: z.boolean() }),
  /** The app's settings (kept by the core, so every window and every start has them). */
  'settings.get': z.object({}),
  /** Changes some settings; answers all of them. A new profile or window applies from the next sync. */
  'settings.update': appSettingsUpdate,
  /** Export and the private calendar feed: export.create, feed.get, feed.set (./export.ts). */
  ...exportCalls,
  /** The desktop app's updates: updates.state, updates.check, updates.install (./updates.ts). */
  ...updateCalls,
} as const;

export type HostCallName = keyof typeof hostCalls;
export type HostCallArgs<N extends HostCallName> = z.input<(typeof hostCalls)[N]>;
export type ParsedHostCallArgs<N extends HostCallName> = z.output<(typeof hostCalls)[N]>;

export function isHostCallName(name: string): name is HostCallName {
  return Object.hasOwn(hostCalls, name);
}

/** The account as the app keeps it (not secret: the tokens are kept apart). */
export interface AccountInfo {
  baseUrl: string;
  authUrl: string;
  tokenUrl: string;
  clientId: string;
  /** The embedded sandbox's account. */
  demo: boolean;
}

/** Who signed in, and what their login may do. */
export interface SignedInUser {
  id: string;
  name: string;
  /**
   * The scopes the login granted (`personal:update`, …): a screen offers only the changes they
   * allow, and says why. Null or absent: the service did not name them (changes are offered, the
   * service decides).
   */
  scopes?: string[] | null;
}

export interface AppState {
  /** first-run: no account yet; signed-out: an account, no tokens; signing-in: the browser is open. */
  phase: 'first-run' | 'signed-out' | 'signing-in' | 'signed-in';
  account: AccountInfo | null;
  user: SignedInUser | null;
  scheduler: SchedulerState | null;
  /** Why the session is signed out when it did not ask for it (a refused refresh), in words. */
  reason?: { de: string; en: string } | null;
  /**
   * While signing in: the service's sign-in page the system browser was asked to open, for the
   * page to offer it where no browser opened (a link only when isLinkableAddress).
   */
  signIn?: { address: string } | null;
  /** The demo's role (its sync profile): the office or a trainer; null for another account. */
  demoRole?: 'office' | 'trainer' | null;
  /** The running demo's service: answering, or taken offline (demo.service); null without one. */
  demoService?: 'online' | 'offline' | null;
  /**
   * The demo starting (phase signing-in, from the moment it was asked for): its service starting
   * (the first start makes its data) or its login, and since when (ISO), for words and seconds.
   */
  demoStart?: { step: 'service' | 'login'; since: string } | null;
}

export interface HostCallResults extends ExportCallResults, UpdateCallResults {
  'app.state': AppState;
  'account.configure': AppState;
  'account.login': AppState;
  'account.cancelLogin': AppState;
  'account.demo': AppState;
  'account.logout': AppState;
  'account.pendingLoss': { pending: number; parked: number };
  'demo.service': AppState;
  'sync.now': SchedulerState;
  'app.visible': { visible: boolean };
  'settings.get': AppSettings;
  'settings.update': AppSettings;
}

/** The host's events, part of CoreEvent. */
export type HostEvent =
  | { type: 'app.state'; state: AppState }
  | { type: 'settings.changed'; settings: AppSettings }
  | { type: 'updates.state'; state: UpdateState }
  | { type: 'notifications.new'; items: { id: string; titel: string }[] };

// ---------------------------------------------------------------------------------------------
// Everything a UI may call: data queries, data commands, host calls (types for every transport).

export type DataCallName = QueryName | CommandName;
export type CallName = DataCallName | HostCallName;
export type CallArgs<N extends CallName> = N extends QueryName
  ? QueryArgs<N>
  : N extends CommandName
    ? CommandArgs<N>
    : N extends HostCallName
      ? HostCallArgs<N>
      : never;
export type CallResults = QueryResults & CommandResults & HostCallResults;
