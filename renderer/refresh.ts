// The on-demand refresh a detail pane asks for when it opens (a course, a person, a client), and
// its state for the pane's "Stand: …".
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { commands, isLocalId, type CoreError } from './contract';
import { relativeTime, useNow } from './format';
import { asCoreError, useApp, useSync } from './stores';

export type Refresh =
  | { phase: 'idle' }
  | { phase: 'running' }
  | { phase: 'done'; confirmedAt: string | null; gone: boolean }
  | { phase: 'failed'; error: CoreError }
  | { phase: 'skipped'; why: 'offline' | 'local' };

/**
 * Asks the core for a course's participants and fields, a person's checks and honours, or a
 * client's participants, now: once per opening, when online (sync.refresh); not for a record
 * made here and not yet sent.
 */
export function useRefresh(
  kind: 'course' | 'person' | 'client',
  id: string,
  onRefreshed: () => void,
): Refresh {
  const bridge = useApp((store) => store.bridge);
  const phase = useSync((store) => store.scheduler?.phase);
  const online = phase !== undefined && phase !== 'offline';
  const [state, setState] = useState<Refresh>({ phase: 'idle' });
  const asked = useRef<string | null>(null);
  const refreshed = useRef(onRefreshed);
  refreshed.current = onRefreshed;
  // Mounted, not "this effect still current": the effect below asks once per item, so an answer
  // must land even when the effect ran again meanwhile (StrictMode runs every effect twice).
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (!bridge) return;
    // A record made here has no service id yet: the contract's own rule for one says so.
    if (isLocalId(id) || !commands['sync.refresh'].safeParse({ kind, id }).success) {
      setState({ phase: 'skipped', why: 'local' });
      return;
    }
    if (!online) {
      if (asked.current !== id) setState({ phase: 'skipped', why: 'offline' });
      return;
    }
    if (asked.current === id) return;
    asked.current = id;
    setState({ phase: 'running' });
    bridge.call('sync.refresh', { kind, id }).then(
      (result) => {
        if (!mounted.current) return;
        setState({ phase: 'done', confirmedAt: result.confirmedAt, gone: result.gone });
        // What the service has now, with the new "as of".
        refreshed.current();
      },
      (error: unknown) =>
        mounted.current && setState({ phase: 'failed', error: asCoreError(error) }),
    );
  }, [bridge, kind, id, online]);
  return state;
}

/**
 * A detail's "as of" in words: "Stand: vor 2 Minuten", "Wird aktualisiert …", "Offline – Stand …",
 * "Hier angelegt – noch nicht beim Dienst"; `offline` for its style.
 */
export function useAsOfWords(
  confirmedAt: string | null,
  refresh: Refresh,
): { words: string; offline: boolean } {
  const { t, i18n } = useTranslation();
  const now = useNow(15_000);
  const offline = useSync((store) => store.scheduler?.phase) === 'offline';
  const when = confirmedAt ? relativeTime(confirmedAt, now, i18n.language, { past: true }) : null;
  let words: string;
  if (refresh.phase === 'skipped' && refresh.why === 'local') words = t('asOf.local');
  else if (offline) words = when ? t('asOf.offline', { when }) : t('asOf.offlineNever');
  else if (refresh.phase === 'running')
    words = when ? t('asOf.refreshing', { when }) : t('asOf.refreshingNever');
  else words = when ? t('asOf.at', { when }) : t('asOf.never');
  return { words, offline };
}
