// How a failed request reads for the person (the service's own words, in German and English) and
// whether it certainly never reached the service (then it can go again without a lookup).
import type { ApiError } from '../api';
import type { OperationError } from './operations';

/** Errors of the connection attempt itself (undici nests them in `cause`): nothing was sent. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

export function neverConnected(error: ApiError): boolean {
  if (error.kind !== 'network') return false;
  let cause: unknown = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    if (NOT_CONNECTED.has((cause as NodeJS.ErrnoException).code ?? '')) return true;
    cause = cause.cause;
  }
  return false;
}

/** The service's own words where it gave some, in both languages' frames. */
export function describeError(error: ApiError): OperationError {
  const detail =
    error.errors
      .map((e) => e.detail ?? e.title)
      .filter(Boolean)
      .join('; ') || error.message;
  const status = error.status ?? null;
  const reason: Record<string, { de: string; en: string }> = {
    network: { de: 'Dienst nicht erreichbar', en: 'service unreachable' },
    timeout: { de: 'keine Antwort in der Zeit', en: 'no answer in time' },
    interrupted: { de: 'Verbindung abgebrochen', en: 'connection lost' },
    malformed: { de: 'unlesbare Antwort', en: 'unreadable answer' },
    throttled: { de: 'Dienst drosselt', en: 'service throttles' },
    server: { de: 'Fehler im Dienst', en: 'service error' },
    auth: { de: 'Anmeldung nötig', en: 'login needed' },
    cancelled: { de: 'abgebrochen', en: 'cancelled' },
  };
  const words = reason[error.kind];
  if (words) {
    return {
      status,
      code: error.kind,
      message: { de: `${words.de}: ${detail}`, en: `${words.en}: ${detail}` },
    };
  }
  const code = error.errors.find((e) => e.code)?.code;
  return {
    status,
    ...(code ? { code } : {}),
    message: {
      de: `Der Dienst hat abgelehnt${status ? ` (${status})` : ''}: ${detail}`,
      en: `The service refused${status ? ` (${status})` : ''}: ${detail}`,
    },
  };
}
