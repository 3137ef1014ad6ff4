// What a finished sync attempt means for the scheduler (its verdict), and the problems it says in
// words for a sync indicator (DESIGN rule 12): offline, login needed, a service error, a sync
// that could not read everything, an office profile refused the staff, a clock far off.
import { ApiError } from '../api';
import type { SchedulerProblem } from '../contract';
import type { SyncSummary } from '../pull/engine';
import type { SyncProfile } from '../pull/options';
import { refusedPeople } from '../pull/profile';

/** What the scheduler reads from a finished sync (syncOnce's summary has it all). */
export interface ScheduledSyncSummary {
  ok: boolean;
  finishedAt?: string;
  collections?: Record<string, { error?: string; failedItems?: number }>;
  outbox?: { pausedForLogin: boolean };
  /** This computer's clock less the service's, in seconds, when the sync could tell. */
  clockSkewSeconds?: number;
  profile?: SyncProfile;
  /** Areas the account may not read (or the organisation has not licensed). */
  unavailable?: SyncSummary['unavailable'];
}

/** What a finished attempt means for the scheduler. */
export type Verdict =
  | { phase: 'idle'; problem: SchedulerProblem | null }
  | { phase: 'error'; problem: SchedulerProblem; retryAfterMs?: number }
  | { phase: 'offline'; problem: SchedulerProblem }
  | { phase: 'login-needed'; problem: SchedulerProblem }
  | { phase: 'cancelled' };

export const OFFLINE: SchedulerProblem = {
  kind: 'network',
  message: {
    de: 'Keine Verbindung zum Dienst. Vorort versucht es von selbst wieder; Ihre Änderungen bleiben gespeichert.',
    en: 'No connection to the service. Vorort keeps trying by itself; your changes are kept.',
  },
};

const NO_ANSWER: SchedulerProblem = {
  kind: 'network',
  message: {
    de: 'Der Dienst antwortet nicht. Vorort versucht es von selbst wieder; Ihre Änderungen bleiben gespeichert.',
    en: 'The service does not answer. Vorort keeps trying by itself; your changes are kept.',
  },
};

const INTERRUPTED: SchedulerProblem = {
  kind: 'network',
  message: {
    de: 'Die Verbindung zum Dienst ist abgebrochen. Vorort versucht es beim nächsten Mal wieder.',
    en: 'The connection to the service broke off. Vorort tries again next time.',
  },
};

const LOGIN_NEEDED: SchedulerProblem = {
  kind: 'login',
  message: {
    de: 'Bitte melden Sie sich neu an: Der Dienst hat die Anmeldung nicht angenommen. Ihre Änderungen bleiben gespeichert und werden danach gesendet.',
    en: 'Please log in again: the service did not accept the login. Your changes are kept and sent afterwards.',
  },
};

const THROTTLED: SchedulerProblem = {
  kind: 'service',
  message: {
    de: 'Der Dienst begrenzt gerade die Zahl der Anfragen. Vorort wartet und versucht es später wieder.',
    en: 'The service is limiting requests right now. Vorort waits and tries again later.',
  },
};

function serviceProblem(text: string): SchedulerProblem {
  return {
    kind: 'service',
    message: {
      de: `Der Dienst hat einen Fehler gemeldet: ${text}`,
      en: `The service reported an error: ${text}`,
    },
  };
}

const PEOPLE_REFUSED: SchedulerProblem = {
  kind: 'service',
  message: {
    de: 'Ihr Konto darf das Personal nicht lesen: Dafür passt das Profil „Kursleitung“ (die eigenen Kurse und Helferstunden).',
    en: 'Your account may not read the staff: the trainer profile fits it (the own courses and hours).',
  },
};

function incompleteProblem(failedRequests: number): SchedulerProblem {
  const one = failedRequests === 1;
  return {
    kind: 'service',
    message: {
      de: `Nicht alles konnte gelesen werden: ${failedRequests} ${one ? 'Anfrage an den Dienst ist' : 'Anfragen an den Dienst sind'} fehlgeschlagen. Vorort versucht es bei der nächsten Synchronisierung wieder.`,
      en: `Not everything could be read: ${failedRequests} ${one ? 'request' : 'requests'} to the service failed. Vorort tries again at the next sync.`,
    },
  };
}

/** The clock is off by `skewSeconds` (this computer less the service). */
function clockProblem(skewSeconds: number): SchedulerProblem {
  const minutes = Math.max(1, Math.round(Math.abs(skewSeconds) / 60));
  const ahead = skewSeconds > 0;
  return {
    kind: 'clock',
    message: {
      de: `Die Uhr dieses Computers geht etwa ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} ${ahead ? 'vor' : 'nach'}. Bitte stellen Sie Datum und Uhrzeit richtig ein, sonst erscheinen Zeiten falsch.`,
      en: `This computer's clock is about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} ${ahead ? 'fast' : 'slow'}. Please set the correct date and time, or times will appear wrong.`,
    },
  };
}

/** The service's words without the request's address (people do not need it). */
function withoutRequest(text: string): string {
  return text.replace(/\s*\[[A-Z]+ \S+\]$/, '');
}

export function judgeSummary(summary: ScheduledSyncSummary, clockLimitSeconds: number): Verdict {
  if (summary.outbox?.pausedForLogin) return { phase: 'login-needed', problem: LOGIN_NEEDED };
  const results = Object.values(summary.collections ?? {});
  const failed = results.find((result) => result.error);
  if (failed?.error)
    return { phase: 'error', problem: serviceProblem(withoutRequest(failed.error)) };
  // The office profile without the staff: the account is a trainer's.
  if (summary.profile && summary.unavailable)
    if (refusedPeople({ profile: summary.profile, unavailable: summary.unavailable }))
      return { phase: 'error', problem: PEOPLE_REFUSED };
  // Requests for single items that failed leave the replica incomplete: not a finished sync.
  const failedItems = results.reduce((sum, result) => sum + (result.failedItems ?? 0), 0);
  if (failedItems > 0) return { phase: 'error', problem: incompleteProblem(failedItems) };
  const skew = summary.clockSkewSeconds;
  if (skew !== undefined && Math.abs(skew) > clockLimitSeconds)
    return { phase: 'idle', problem: clockProblem(skew) };
  return { phase: 'idle', problem: null };
}

export function judgeError(error: unknown): Verdict {
  if (error instanceof ApiError) {
    switch (error.kind) {
      case 'cancelled':
        return { phase: 'cancelled' };
      case 'auth':
        return { phase: 'login-needed', problem: LOGIN_NEEDED };
      case 'network':
        return { phase: 'offline', problem: OFFLINE };
      case 'timeout':
        return { phase: 'offline', problem: NO_ANSWER };
      case 'interrupted':
        return { phase: 'error', problem: INTERRUPTED };
      case 'throttled':
        return {
          phase: 'error',
          problem: THROTTLED,
          ...(error.retryAfterSeconds === undefined
            ? {}
            : { retryAfterMs: error.retryAfterSeconds * 1000 }),
        };
      default: {
        const words = error.errors
          .map((e) => e.detail || e.title)
          .filter(Boolean)
          .join('; ');
        return { phase: 'error', problem: serviceProblem(words || withoutRequest(error.message)) };
      }
    }
  }
  if (error instanceof Error && error.name === 'AbortError') return { phase: 'cancelled' };
  const text = error instanceof Error ? error.message : String(error);
  return {
    phase: 'error',
    problem: {
      kind: 'service',
      message: {
        de: `Die Synchronisierung ist fehlgeschlagen: ${text}`,
        en: `The sync failed: ${text}`,
      },
    },
  };
}
