// The always-visible sync indicator: online/offline, last sync, progress, pending, parked and
// conflicts; a click opens the details; "Jetzt synchronisieren" beside it. With
// onOpenSyncCentre, the counts are a button of their own that opens the sync centre, and
// refused changes and conflicts stand out, so a trainer sees that something waits for them.
import { useState } from 'react';
import './SyncIndicator.css';
import { useTranslation } from 'react-i18next';
import type { SchedulerState, SyncStatus } from '../contract';
import { absoluteTime, formatNumber, relativeTime, useNow } from '../format';
import { reportError, useApp, useSync } from '../stores';
import { Dialog } from './Dialog';

type T = ReturnType<typeof useTranslation>['t'];

function collectionName(t: T, collection: string): string {
  return t(`sync.collection.${collection}`, { defaultValue: collection });
}

/** The indicator's main words for a state. */
function phaseText(t: T, scheduler: SchedulerState): string {
  switch (scheduler.phase) {
    case 'syncing':
      return scheduler.progress
        ? t('sync.syncingCollection', {
            collection: collectionName(t, scheduler.progress.collection),
          })
        : t('sync.syncing');
    case 'idle':
      return t('sync.idle');
    case 'offline':
      return t('sync.unreachable');
    case 'login-needed':
      return t('sync.loginNeeded');
    case 'error':
      return t('sync.error');
  }
}

function Counts({ scheduler }: { scheduler: SchedulerState }) {
  const { t } = useTranslation();
  return (
    <span className="sync-counts" data-attention={scheduler.parked + scheduler.conflicts > 0}>
      <span
        className={scheduler.pending > 0 ? 'badge badge-pending' : 'badge badge-quiet'}
        data-testid="sync-pending"
        data-count={scheduler.pending}
      >
        {t('sync.pending', { count: scheduler.pending })}
      </span>
      {scheduler.parked > 0 ? (
        <span
          className="badge badge-parked"
          data-testid="sync-parked"
          data-count={scheduler.parked}
        >
          {t('sync.parked', { count: scheduler.parked })}
        </span>
      ) : null}
      {scheduler.conflicts > 0 ? (
        <span
          className="badge badge-conflict"
          data-testid="sync-conflicts"
          data-count={scheduler.conflicts}
        >
          {t('sync.conflicts', { count: scheduler.conflicts })}
        </span>
      ) : null}
    </span>
  );
}

export function useSyncNow(): { run(): void; running: boolean } {
  const bridge = useApp((store) => store.bridge);
  const [running, setRunning] = useState(false);
  return {
    running,
    run() {
      if (!bridge || running) return;
      setRunning(true);
      bridge
        .call('sync.now', {})
        .then((scheduler) => useSync.setState({ scheduler }), reportError)
        .finally(() => setRunning(false));
    },
  };
}

export function SyncIndicator({ onOpenSyncCentre }: { onOpenSyncCentre?: () => void } = {}) {
  const { t, i18n } = useTranslation();
  const scheduler = useSync((store) => store.scheduler);
  const connection = useApp((store) => store.connection);
  const now = useNow();
  const [open, setOpen] = useState(false);
  const syncNow = useSyncNow();

  const connected = connection.phase === 'open';
  const phase = !connected ? 'disconnected' : (scheduler?.phase ?? 'unknown');
  const online = connected && scheduler !== null && scheduler.phase !== 'offline';
  const main = !connected
    ? t('sync.noConnection')
    : scheduler
      ? phaseText(t, scheduler)
      : t('sync.syncing');
  const last = scheduler?.lastSuccessfulSyncAt
    ? t('sync.lastSync', {
        when: relativeTime(scheduler.lastSuccessfulSyncAt, now, i18n.language, { past: true }),
      })
    : t('sync.never');
  const progress = scheduler?.phase === 'syncing' ? scheduler.progress : null;

  return (
    <div className="sync-indicator" data-testid="sync-indicator" data-phase={phase}>
      <button
        type="button"
        className="sync-summary"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
      >
        <span className={`dot dot-${phase}`} aria-hidden="true" />
        <span className="sync-online" data-testid="sync-online" data-online={online}>
          {online ? t('sync.online') : t('sync.offline')}
        </span>
        <span className="sync-main" data-testid="sync-state">
          {main}
          {progress ? (
            <span className="sync-progress-text">
              {' '}
              {progress.total !== undefined
                ? t('sync.progress', {
                    done: formatNumber(progress.done, i18n.language),
                    total: formatNumber(progress.total, i18n.language),
                  })
                : t('sync.progressOpen', { done: formatNumber(progress.done, i18n.language) })}
            </span>
          ) : null}
        </span>
        {progress ? (
          <progress
            className="sync-progress"
            value={progress.total !== undefined ? progress.done : undefined}
            max={progress.total ?? undefined}
            aria-hidden="true"
          />
        ) : null}
        <span
          className="sync-last"
          title={
            scheduler?.lastSuccessfulSyncAt
              ? absoluteTime(scheduler.lastSuccessfulSyncAt, i18n.language)
              : undefined
          }
        >
          {last}
        </span>
        {scheduler && !onOpenSyncCentre ? <Counts scheduler={scheduler} /> : null}
        {/* The visible words are the button's name (WCAG 2.5.3); what a click does, for screen readers. */}
        <span className="visually-hidden">{t('sync.showDetails')}</span>
      </button>
      {scheduler && onOpenSyncCentre ? (
        <button
          type="button"
          className="sync-counts-button"
          data-testid="sync-open-centre"
          data-attention={scheduler.parked + scheduler.conflicts > 0}
          onClick={onOpenSyncCentre}
        >
          <Counts scheduler={scheduler} />
          <span className="visually-hidden">{t('sync.openCentre')}</span>
        </button>
      ) : null}
      <button
        type="button"
        className="secondary sync-now"
        onClick={syncNow.run}
        disabled={!connected || syncNow.running || scheduler?.phase === 'syncing'}
      >
        {t('sync.now')}
      </button>
      <span className="visually-hidden" role="status">
        {online ? t('sync.online') : t('sync.offline')}: {main}
      </span>
      <SyncDetails
        open={open}
        onClose={() => setOpen(false)}
        onOpenSyncCentre={
          onOpenSyncCentre
            ? () => {
                setOpen(false);
                onOpenSyncCentre();
              }
            : undefined
        }
      />
    </div>
  );
}

function SyncDetails({
  open,
  onClose,
  onOpenSyncCentre,
}: {
  open: boolean;
  onClose(): void;
  onOpenSyncCentre?: (() => void) | undefined;
}) {
  const { t, i18n } = useTranslation();
  const scheduler = useSync((store) => store.scheduler);
  const status = useSync((store) => store.status);
  const now = useNow();
  const syncNow = useSyncNow();
  const language = i18n.language;
  const when = (iso: string | null | undefined, past = false) =>
    iso
      ? `${relativeTime(iso, now, language, { past })} (${absoluteTime(iso, language)})`
      : t('sync.details.none');
  const records = status ? totalRecords(status) : null;

  return (
    <Dialog open={open} onClose={onClose} labelledBy="sync-details-title" className="sync-details">
      <h2 id="sync-details-title">{t('sync.details.title')}</h2>
      <dl className="facts">
        <dt>{t('sync.details.state')}</dt>
        <dd>{scheduler ? phaseText(t, scheduler) : t('sync.details.none')}</dd>
        {scheduler?.problem ? (
          <>
            <dt>{t('sync.details.problem')}</dt>
            <dd>
              {language === 'en' ? scheduler.problem.message.en : scheduler.problem.message.de}
            </dd>
          </>
        ) : null}
        <dt>{t('sync.details.lastSuccess')}</dt>
        <dd>{when(scheduler?.lastSuccessfulSyncAt, true)}</dd>
        <dt>{t('sync.details.nextAttempt')}</dt>
        <dd>{when(scheduler?.nextAttemptAt)}</dd>
        <dt>{t('sync.details.pending')}</dt>
        <dd>{formatNumber(scheduler?.pending ?? 0, language)}</dd>
        <dt>{t('sync.details.parked')}</dt>
        <dd>{formatNumber(scheduler?.parked ?? 0, language)}</dd>
        <dt>{t('sync.details.conflicts')}</dt>
        <dd>{formatNumber(scheduler?.conflicts ?? 0, language)}</dd>
        <dt>{t('sync.details.records')}</dt>
        <dd>{records === null ? t('sync.details.none') : formatNumber(records, language)}</dd>
        <dt>{t('sync.details.quarantine')}</dt>
        <dd>{status ? formatNumber(status.quarantine.total, language) : t('sync.details.none')}</dd>
      </dl>
      {scheduler && (scheduler.parked > 0 || scheduler.conflicts > 0) ? (
        <p className="hint">{t('sync.details.parkedHint')}</p>
      ) : null}
      <div className="actions">
        <button
          type="button"
          onClick={syncNow.run}
          disabled={syncNow.running || scheduler?.phase === 'syncing'}
        >
          {t('sync.now')}
        </button>
        {onOpenSyncCentre ? (
          <button type="button" className="secondary" onClick={onOpenSyncCentre}>
            {t('sync.details.openCentre')}
          </button>
        ) : null}
        <button type="button" className="secondary" onClick={onClose}>
          {t('sync.details.close')}
        </button>
      </div>
    </Dialog>
  );
}

export function totalRecords(status: SyncStatus): number {
  return Object.values(status.counts).reduce((sum, count) => sum + count, 0);
}
