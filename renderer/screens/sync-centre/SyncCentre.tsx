// The sync centre (Alt+8): where the sync stands (online, last sync, counts, what is set aside,
// areas the account cannot use), the conflicts per record and field, and every open operation
// of the outbox in words ("Teilnahme von Max Muster abgesagt – wartet auf Verbindung") with
// retry, edit and discard. Keyboard: Up/Down (Home/End, PageUp/PageDown) move between the
// operations (one of them is in the tab order), R retries, E or Enter edits, Delete discards.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConflictEntry, OutboxEntry } from '../../contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSyncNow } from '../../components/SyncIndicator';
import { sendCommand, useQuery } from '../../data';
import { errorText } from '../../errors';
import { absoluteTime, formatNumber, relativeTime, useNow } from '../../format';
import { useApp, useSync } from '../../stores';
import { Conflicts } from './Conflicts';
import { operationText, stateText, subjectDetail, words } from './describe';
import { PERSON_COMMANDS, RefusedPersonDialog } from '../personnel/PersonDialog';
import { OutboxEditDialog } from './OutboxEditDialog';
import './sync-centre.css';

export function SyncCentre() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const outbox = useQuery('outbox.list', {});
  const conflicts = useQuery('conflicts.list', {});
  const [notice, setNotice] = useState('');
  const reloadAll = () => {
    outbox.reload();
    conflicts.reload();
  };

  return (
    <section className="sync-centre" aria-labelledby="workspace-title">
      <StatusPanel />
      <p className="visually-hidden" role="status" data-testid="sync-centre-notice">
        {notice}
      </p>
      {conflicts.error ? (
        <p className="form-error">{errorText(conflicts.error, language)}</p>
      ) : null}
      {conflicts.data && conflicts.data.length > 0 ? (
        <Conflicts
          conflicts={conflicts.data as ConflictEntry[]}
          onResolved={(message) => {
            setNotice(message);
            reloadAll();
          }}
        />
      ) : null}
      <section className="sync-section" aria-labelledby="outbox-title">
        <h2 id="outbox-title">
          {t('syncCentre.outbox.title')}{' '}
          {outbox.data ? (
            <span className="count-pill" data-testid="outbox-count">
              {formatNumber(outbox.data.length, language)}
            </span>
          ) : null}
        </h2>
        {outbox.error ? <p className="form-error">{errorText(outbox.error, language)}</p> : null}
        {outbox.data === undefined ? null : outbox.data.length === 0 ? (
          <p className="sync-empty" data-testid="outbox-empty">
            {t('syncCentre.outbox.empty')}
          </p>
        ) : (
          <OutboxList
            entries={outbox.data}
            onChanged={(message) => {
              setNotice(message);
              reloadAll();
            }}
          />
        )}
      </section>
    </section>
  );
}

/** Online or not, the last sync, the counts, what is set aside, areas not available. */
function StatusPanel() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const scheduler = useSync((store) => store.scheduler);
  const status = useSync((store) => store.status);
  const connected = useApp((store) => store.connection.phase === 'open');
  const now = useNow();
  const syncNow = useSyncNow();
  const online = connected && scheduler !== null && scheduler.phase !== 'offline';
  const last = scheduler?.lastSuccessfulSyncAt ?? status?.lastSuccessfulSyncAt ?? null;
  const unavailable = (status?.unavailableAreas ?? []).filter(
    (area) => area.state !== 'available' && area.state !== 'never synced',
  );
  const counts: { key: string; value: number; attention: boolean }[] = [
    { key: 'pending', value: scheduler?.pending ?? 0, attention: false },
    { key: 'parked', value: scheduler?.parked ?? 0, attention: (scheduler?.parked ?? 0) > 0 },
    {
      key: 'conflicts',
      value: scheduler?.conflicts ?? 0,
      attention: (scheduler?.conflicts ?? 0) > 0,
    },
    { key: 'quarantine', value: status?.quarantine.total ?? 0, attention: false },
  ];
  return (
    <header className="sync-status" data-testid="sync-centre-status">
      <div className="sync-status-head">
        <div>
          <h1 id="workspace-title">{t('syncCentre.title')}</h1>
          <p className="sync-status-line">
            <span
              className={`dot dot-${online ? (scheduler?.phase ?? 'idle') : 'offline'}`}
              aria-hidden="true"
            />
            <strong>
              {online ? t('syncCentre.status.online') : t('syncCentre.status.offline')}
            </strong>
            <span className="muted" title={last ? absoluteTime(last, language) : undefined}>
              {' · '}
              {last
                ? t('syncCentre.status.lastSync', {
                    when: relativeTime(last, now, language, { past: true }),
                  })
                : t('syncCentre.status.never')}
            </span>
          </p>
        </div>
        <button
          type="button"
          onClick={syncNow.run}
          disabled={!connected || syncNow.running || scheduler?.phase === 'syncing'}
          data-testid="sync-centre-now"
        >
          {t('syncCentre.now')}
        </button>
      </div>
      {scheduler?.problem ? (
        <p className="reason">
          <strong>{t('syncCentre.status.problem')}:</strong>{' '}
          {language === 'en' ? scheduler.problem.message.en : scheduler.problem.message.de}
        </p>
      ) : null}
      <ul className="sync-tiles" aria-label={t('syncCentre.title')}>
        {counts.map((count) => (
          <li
            key={count.key}
            className="sync-tile"
            data-attention={count.attention}
            data-testid={`sync-centre-${count.key}`}
            data-count={count.value}
            title={count.key === 'quarantine' ? t('syncCentre.status.quarantineHint') : undefined}
          >
            <span className="sync-tile-value">{formatNumber(count.value, language)}</span>
            <span className="sync-tile-label">{t(`syncCentre.status.${count.key}`)}</span>
          </li>
        ))}
      </ul>
      {unavailable.length > 0 ? (
        <p className="muted sync-unavailable" data-testid="sync-centre-unavailable">
          <strong>{t('syncCentre.status.unavailable')}:</strong>{' '}
          {unavailable
            .map((area) => (language === 'en' ? area.message.en : area.message.de))
            .join(' · ')}
        </p>
      ) : null}
    </header>
  );
}

/** The open operations, virtualized, a listbox with a chosen row and its actions. */
function OutboxList({
  entries,
  onChanged,
}: {
  entries: OutboxEntry[];
  onChanged(message: string): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const scheduler = useSync((store) => store.scheduler);
  const now = useNow();
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const [editing, setEditingOperation] = useState<OutboxEntry | null>(null);
  const [editingPerson, setEditingPerson] = useState<OutboxEntry | null>(null);
  /** A refused change of a person opens the person's form; any other operation its fields. */
  const setEditing = (entry: OutboxEntry) =>
    PERSON_COMMANDS.includes(entry.command) ? setEditingPerson(entry) : setEditingOperation(entry);
  const [discarding, setDiscarding] = useState<OutboxEntry | null>(null);
  const [discardError, setDiscardError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [rowError, setRowError] = useState<{ id: number; text: string } | null>(null);

  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 92,
    overscan: 8,
    getItemKey: (index) => entries[index]?.id ?? index,
  });

  const index = Math.min(active, entries.length - 1);
  const current = entries[index];
  const byRecord = new Map(entries.map((entry) => [entry.recordId, entry]));
  const sentence = (entry: OutboxEntry) => operationText(t, entry, language);

  const focusPending = useRef(false);
  const focusRow = (next: number) => {
    const bounded = Math.max(0, Math.min(entries.length - 1, next));
    setActive(bounded);
    focusPending.current = true;
    virtualizer.scrollToIndex(bounded, { align: 'auto' });
  };
  // The row moved to gets the focus once it is rendered (a virtual row may appear a frame later).
  useEffect(() => {
    if (!focusPending.current) return;
    const row = scroller.current?.querySelector<HTMLElement>(
      `[data-index="${index}"] [data-testid="outbox-row"]`,
    );
    if (row) {
      focusPending.current = false;
      row.focus({ preventScroll: true });
    }
  });

  const retry = async (entry: OutboxEntry) => {
    setRowError(null);
    const result = await sendCommand('outbox.retry', { id: entry.id });
    if (result.ok) onChanged(`${sentence(entry)}: ${t('syncCentre.outbox.retried')}`);
    else setRowError({ id: entry.id, text: errorText(result.error, language) });
  };

  const discard = async () => {
    if (!discarding) return;
    setBusy(true);
    setDiscardError(null);
    const result = await sendCommand('outbox.discard', { id: discarding.id });
    setBusy(false);
    if (result.ok) {
      onChanged(`${sentence(discarding)}: ${t('syncCentre.outbox.discarded')}`);
      setDiscarding(null);
      scroller.current?.focus();
    } else setDiscardError(errorText(result.error, language));
  };

  const canRetry = (entry: OutboxEntry) => entry.state !== 'in_flight' && entry.state !== 'pending';
  const canEdit = (entry: OutboxEntry) =>
    entry.state === 'parked' || entry.state === 'pending' || entry.state === 'retrying';
  const canDiscard = (entry: OutboxEntry) => entry.state !== 'in_flight';

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Keys on a row itself (a focused button keeps Enter and Space for itself).
    if (!(event.target as HTMLElement).matches('[data-testid="outbox-row"]')) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        focusRow(index + 1);
        return;
      case 'ArrowUp':
        event.preventDefault();
        focusRow(index - 1);
        return;
      case 'Home':
        event.preventDefault();
        focusRow(0);
        return;
      case 'End':
        event.preventDefault();
        focusRow(entries.length - 1);
        return;
      case 'PageDown':
        event.preventDefault();
        focusRow(index + 5);
        return;
      case 'PageUp':
        event.preventDefault();
        focusRow(index - 5);
        return;
      case 'r':
      case 'R':
        if (current && canRetry(current)) {
          event.preventDefault();
          void retry(current);
        }
        return;
      case 'e':
      case 'E':
      case 'Enter':
        if (current && canEdit(current)) {
          event.preventDefault();
          setEditing(current);
        }
        return;
      case 'Delete':
        if (current && canDiscard(current)) {
          event.preventDefault();
          setDiscardError(null);
          setDiscarding(current);
        }
        return;
    }
  };

  return (
    <>
      <p className="hint outbox-keys" id="outbox-keys">
        {t('syncCentre.outbox.keys')}
      </p>
      <div className="outbox-list" ref={scroller} onKeyDown={onKeyDown} data-testid="outbox-list">
        <div
          role="list"
          aria-label={t('syncCentre.outbox.listLabel')}
          style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const entry = entries[item.index]!;
            const selected = item.index === index;
            const waitingFor = entry.waitingFor ? byRecord.get(entry.waitingFor) : undefined;
            const detail = subjectDetail(t, entry.subject);
            const stateWords = stateText(
              t,
              entry,
              scheduler,
              waitingFor ? sentence(waitingFor) : null,
              now,
              language,
            );
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                role="listitem"
                className="outbox-row-frame"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <div
                  tabIndex={selected ? 0 : -1}
                  className="outbox-row"
                  data-selected={selected}
                  aria-describedby="outbox-keys"
                  aria-keyshortcuts="R E Delete"
                  data-testid="outbox-row"
                  data-state={entry.state}
                  data-outbox-id={entry.id}
                  data-command={entry.command}
                  onFocus={() => setActive(item.index)}
                  onClick={() => setActive(item.index)}
                >
                  <div className="outbox-main">
                    <span className="outbox-sentence">
                      <strong>{sentence(entry)}</strong>
                      <span
                        className={`outbox-state state-${entry.state}`}
                        data-testid="outbox-state"
                      >
                        {' – '}
                        {entry.state === 'parked' && entry.error
                          ? words(entry.error.message, language)
                          : stateWords}
                      </span>
                    </span>
                    <span className="outbox-meta muted">
                      {detail ? <span>{detail}</span> : null}
                      <span title={absoluteTime(entry.createdAt, language)}>
                        {t('syncCentre.outbox.created', {
                          when: relativeTime(entry.createdAt, now, language, { past: true }),
                        })}
                      </span>
                      {entry.attempts > 0 ? (
                        <span>{t('syncCentre.outbox.attempts', { count: entry.attempts })}</span>
                      ) : null}
                      {entry.nextAttemptAt && entry.state === 'retrying' ? (
                        <span title={absoluteTime(entry.nextAttemptAt, language)}>
                          {t('syncCentre.outbox.next', {
                            when: relativeTime(entry.nextAttemptAt, now, language),
                          })}
                        </span>
                      ) : null}
                    </span>
                    {rowError?.id === entry.id ? (
                      <span className="field-error" role="alert">
                        {rowError.text}
                      </span>
                    ) : null}
                  </div>
                  <div className="outbox-actions">
                    <span className={`badge outbox-badge badge-${entry.state}`}>
                      {t(`syncCentre.stateName.${entry.state}`)}
                    </span>
                    {canRetry(entry) ? (
                      <button
                        type="button"
                        className="secondary"
                        data-testid="outbox-retry"
                        aria-keyshortcuts="R"
                        title="R"
                        onClick={() => {
                          setActive(item.index);
                          void retry(entry);
                        }}
                      >
                        {t('syncCentre.outbox.retry')}
                      </button>
                    ) : null}
                    {canEdit(entry) ? (
                      <button
                        type="button"
                        className="secondary"
                        data-testid="outbox-edit"
                        aria-keyshortcuts="E"
                        title="E"
                        onClick={() => {
                          setActive(item.index);
                          setEditing(entry);
                        }}
                      >
                        {t('syncCentre.outbox.edit')}
                      </button>
                    ) : null}
                    {canDiscard(entry) ? (
                      <button
                        type="button"
                        className="secondary outbox-discard"
                        data-testid="outbox-discard"
                        aria-keyshortcuts="Delete"
                        title={t('syncCentre.outbox.discard')}
                        onClick={() => {
                          setActive(item.index);
                          setDiscardError(null);
                          setDiscarding(entry);
                        }}
                      >
                        {t('syncCentre.outbox.discard')}
                      </button>
                    ) : null}
                  </div>
                </div>
              </div>
            );
          })}
        </div>
      </div>
      <OutboxEditDialog
        entry={editing}
        onClose={() => setEditingOperation(null)}
        onSaved={(entry) => {
          setEditingOperation(null);
          onChanged(`${sentence(entry)}: ${t('syncCentre.outbox.saved')}`);
        }}
      />
      <RefusedPersonDialog
        entry={editingPerson}
        onClose={() => setEditingPerson(null)}
        onSaved={(entry) => onChanged(`${sentence(entry)}: ${t('syncCentre.outbox.saved')}`)}
      />
      <ConfirmDialog
        open={discarding !== null}
        title={t('syncCentre.discard.title')}
        text={discarding ? t('syncCentre.discard.text', { what: sentence(discarding) }) : ''}
        confirmLabel={t('syncCentre.discard.confirm')}
        destructive
        busy={busy}
        error={discardError}
        onConfirm={() => void discard()}
        onCancel={() => setDiscarding(null)}
        data-testid="outbox-discard-dialog"
      >
        {discarding?.command.endsWith('.create') ? (
          <p className="warning">{t('syncCentre.discard.created')}</p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
