// Conflicts, grouped per record: each field side by side (before / mine / on the service) with
// "Meine behalten" and "Dienst übernehmen" (conflicts.resolve). A record the service deleted
// says so in the service's column.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConflictEntry } from '../../contract';
import { sendCommand } from '../../data';
import { errorText } from '../../errors';
import { relativeTime, useNow } from '../../format';
import { fieldName, recordText, subjectDetail, valueText } from './describe';

interface Group {
  key: string;
  conflicts: ConflictEntry[];
}

function groupsOf(conflicts: ConflictEntry[]): Group[] {
  const groups = new Map<string, Group>();
  for (const conflict of conflicts) {
    const key = `${conflict.recordType}/${conflict.recordId}`;
    const group = groups.get(key) ?? { key, conflicts: [] };
    group.conflicts.push(conflict);
    groups.set(key, group);
  }
  return [...groups.values()];
}

export function Conflicts({
  conflicts,
  onResolved,
}: {
  conflicts: ConflictEntry[];
  onResolved(message: string): void;
}) {
  const { t } = useTranslation();
  const groups = groupsOf(conflicts);
  return (
    <section className="sync-section" aria-labelledby="conflicts-title" data-testid="conflicts">
      <h2 id="conflicts-title">
        {t('syncCentre.conflicts.title')} <span className="count-pill">{conflicts.length}</span>
      </h2>
      <p className="hint">{t('syncCentre.conflicts.intro')}</p>
      {groups.map((group) => (
        <ConflictGroup key={group.key} conflicts={group.conflicts} onResolved={onResolved} />
      ))}
    </section>
  );
}

function ConflictGroup({
  conflicts,
  onResolved,
}: {
  conflicts: ConflictEntry[];
  onResolved(message: string): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const now = useNow();
  const first = conflicts[0]!;
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const headingId = `conflict-${first.recordType}-${first.recordId}`;
  const detail = subjectDetail(t, first.subject);

  const resolve = async (conflict: ConflictEntry, take: 'mine' | 'theirs') => {
    setBusy(conflict.id);
    setError(null);
    const result = await sendCommand('conflicts.resolve', { id: conflict.id, take });
    setBusy(null);
    if (result.ok)
      onResolved(
        `${fieldName(t, conflict.field)}: ${
          take === 'mine'
            ? t('syncCentre.conflicts.keepMine')
            : t('syncCentre.conflicts.takeTheirs')
        }`,
      );
    else setError(errorText(result.error, language));
  };

  return (
    <article
      className="conflict-group"
      aria-labelledby={headingId}
      data-testid="conflict-group"
      data-record-type={first.recordType}
      data-record-id={first.recordId}
    >
      <header className="conflict-head">
        <h3 id={headingId}>{recordText(t, first, language)}</h3>
        {detail ? <span className="muted">{detail}</span> : null}
        <span className="muted conflict-when">
          {t('syncCentre.conflicts.detected', {
            when: relativeTime(first.detectedAt, now, language, { past: true }),
          })}
        </span>
      </header>
      <div className="conflict-table-wrap">
        <table className="conflict-table">
          <thead>
            <tr>
              <th scope="col">{t('syncCentre.conflicts.field')}</th>
              <th scope="col">{t('syncCentre.conflicts.base')}</th>
              <th scope="col">{t('syncCentre.conflicts.mine')}</th>
              <th scope="col">{t('syncCentre.conflicts.theirs')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('syncCentre.conflicts.choice')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {conflicts.map((conflict) => {
              const name = fieldName(t, conflict.field);
              return (
                <tr
                  key={conflict.id}
                  data-testid="conflict-row"
                  data-conflict-id={conflict.id}
                  data-field={conflict.field}
                  data-kind={conflict.kind}
                >
                  <th scope="row">{name}</th>
                  <td className="conflict-base">{valueText(t, conflict.base, language)}</td>
                  <td className="conflict-mine">{valueText(t, conflict.mine, language)}</td>
                  <td className="conflict-theirs">
                    {conflict.kind === 'deleted' ? (
                      <span
                        className="conflict-deleted"
                        title={t('syncCentre.conflicts.deletedHint')}
                      >
                        {t('syncCentre.conflicts.deleted')}
                      </span>
                    ) : (
                      valueText(t, conflict.theirs, language)
                    )}
                  </td>
                  <td>
                    <div className="conflict-actions">
                      <button
                        type="button"
                        className="secondary"
                        disabled={busy !== null}
                        data-testid="conflict-keep-mine"
                        aria-label={`${t('syncCentre.conflicts.keepMine')}: ${name}`}
                        onClick={() => void resolve(conflict, 'mine')}
                      >
                        {t('syncCentre.conflicts.keepMine')}
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        disabled={busy !== null}
                        data-testid="conflict-take-theirs"
                        aria-label={`${t('syncCentre.conflicts.takeTheirs')}: ${name}`}
                        onClick={() => void resolve(conflict, 'theirs')}
                      >
                        {t('syncCentre.conflicts.takeTheirs')}
                      </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </article>
  );
}
