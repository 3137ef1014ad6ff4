// One person beside the list: status, contact data and address, groups, driving licence,
// qualifications, trainings (expired and expiring within 3 months marked), checks (last and next
// due), honours and the service's forms of the person. Opening a person asks the core for their checks and honours now when online
// and says how fresh they are ("Stand: vor 2 Minuten").
import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormsSection } from '../../components/FormsSection';
import type { PersonDetail as Person } from '../../contract';
import { sendCommand, useQuery } from '../../data';
import { errorText } from '../../errors';
import { formatDate, serviceDay } from '../../format';
import { useAsOfWords, useRefresh, type Refresh } from '../../refresh';
import { NotSent } from '../courses/bits';
import { addMonths } from '../courses/state';
import { day, PersonStatusBadge, textOf, usePersonnelGrants } from './bits';
import { Qualifications } from './PersonQualifications';

/** Expired, expiring within three months, or fine (null), as of today in the service's zone. */
export function expiry(validUntil: string | null, today: string): 'expired' | 'soon' | null {
  if (!validUntil) return null;
  if (validUntil < today) return 'expired';
  return validUntil <= addMonths(today, 3) ? 'soon' : null;
}

export function PersonDetail({
  id,
  headingRef,
  onBack,
  wantFocus,
  onFocused,
  onEdit,
}: {
  id: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onBack: (() => void) | null;
  wantFocus: boolean;
  onFocused(): void;
  onEdit(person: Person): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const person = useQuery('personnel.get', { id });
  const grants = usePersonnelGrants();
  const refresh = useRefresh('person', id, person.reload);
  const data = person.data;
  useEffect(() => {
    if (data === undefined || !wantFocus) return;
    headingRef.current?.focus();
    onFocused();
  }, [data, wantFocus, headingRef, onFocused]);

  if (person.error)
    return (
      <p className="form-error" role="alert">
        {errorText(person.error, language)}
      </p>
    );
  if (data === undefined) return <p className="muted">{t('personnel.detail.loading')}</p>;
  if (data === null)
    return (
      <p className="muted" data-testid="person-gone">
        {t('personnel.detail.gone')}
      </p>
    );
  return (
    <article className="person-detail" aria-labelledby="person-title" data-testid="person-detail">
      <header className="person-detail-head">
        {onBack ? (
          <button type="button" className="secondary back" onClick={onBack}>
            {t('personnel.detail.back')}
          </button>
        ) : null}
        <h2 id="person-title" ref={headingRef} tabIndex={-1}>
          {[textOf(data.attributes.anrede), data.vorname, data.nachname].filter(Boolean).join(' ')}
        </h2>
        <span className="person-badges">
          <PersonStatusBadge status={data.status} />
          <NotSent state={data.localState} />
        </span>
        {grants.update ? (
          <button
            type="button"
            className="secondary person-edit"
            data-testid="person-edit"
            aria-keyshortcuts="E"
            title={t('personnel.detail.editTitle')}
            onClick={() => onEdit(data)}
          >
            {t('personnel.detail.edit')}
          </button>
        ) : null}
        <AsOf person={data} refresh={refresh} />
      </header>
      <PersonFacts person={data} />
      <Qualifications person={data} />
      <Trainings person={data} />
      <Checks person={data} />
      <Honours person={data} />
      <FormsSection
        typ="u"
        id={data.id}
        className="person-section"
        refreshed={refresh.phase === 'done'}
      />
    </article>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  const shown = rows.filter(([, value]) => value !== null && value !== '');
  if (!shown.length) return null;
  return (
    <dl className="facts">
      {shown.map(([label, value]) => (
        <div key={label} className="fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function PersonFacts({ person }: { person: Person }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const a = person.attributes;
  const date = (value: unknown) => {
    const d = day(value);
    return d ? formatDate(d, language) : null;
  };
  const place = [textOf(a.plz), textOf(a.ort)].filter(Boolean).join(' ');
  const address = [textOf(a.adresse), place, textOf(a.land)].filter(Boolean).join(', ');
  const groups = Array.isArray(a.gruppen_namen) ? a.gruppen_namen.map(textOf).filter(Boolean) : [];
  const licence =
    a.fahrerlaubnis && typeof a.fahrerlaubnis === 'object'
      ? (a.fahrerlaubnis as Record<string, unknown>)
      : {};
  const classes = Array.isArray(licence.klassen) ? licence.klassen.map(textOf).filter(Boolean) : [];
  return (
    <>
      <section className="person-section" aria-labelledby="person-contact">
        <h3 id="person-contact">{t('personnel.detail.contact')}</h3>
        <Facts
          rows={[
            [t('personnel.field.email'), textOf(a.email)],
            [t('personnel.field.handy'), textOf(a.handy)],
            [t('personnel.field.telpriv'), textOf(a.telpriv)],
            [t('personnel.field.teldienst'), textOf(a.teldienst)],
            [t('personnel.field.address'), address || null],
            [t('personnel.field.gebdat'), date(a.gebdat)],
            [t('personnel.field.mitgliednr'), person.mitgliednr],
            [t('personnel.field.mitgliedSeit'), date(a.mitglied_seit)],
            [t('personnel.field.austritt'), date(a.austritt_datum)],
            [t('personnel.field.organisation'), person.organisation],
          ]}
        />
      </section>
      {groups.length ? (
        <section className="person-section" aria-labelledby="person-groups">
          <h3 id="person-groups">{t('personnel.detail.groups')}</h3>
          <ul className="chips">
            {groups.map((group) => (
              <li key={group} className="chip">
                {group}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {classes.length || textOf(licence.fuehrerscheinnummer) ? (
        <section className="person-section" aria-labelledby="person-licence">
          <h3 id="person-licence">{t('personnel.detail.licence')}</h3>
          <Facts
            rows={[
              [t('personnel.field.classes'), classes.join(', ') || null],
              [t('personnel.field.restriction'), textOf(licence.beschraenkung)],
              [t('personnel.field.licenceNumber'), textOf(licence.fuehrerscheinnummer)],
              [t('personnel.field.licenceDate'), date(licence.fuehrerscheindatum)],
            ]}
          />
        </section>
      ) : null}
    </>
  );
}

function Trainings({ person }: { person: Person }) {
  const { t, i18n } = useTranslation();
  const mayChange = usePersonnelGrants().update;
  const today = serviceDay();
  const [deleting, setDeleting] = useState<Person['ausbildungen'][number] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <section className="person-section" aria-labelledby="person-trainings">
      <ConfirmDialog
        open={deleting !== null}
        title={t('personnel.training.deleteTitle')}
        text={t('personnel.training.deleteText', {
          name: deleting?.bezeichnung ?? '',
          person: `${person.vorname} ${person.nachname}`,
        })}
        confirmLabel={t('personnel.training.delete')}
        destructive
        busy={busy}
        error={error}
        data-testid="training-delete-confirm"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          setBusy(true);
          void sendCommand('ausbildung.delete', { userId: person.id, id: deleting.id }).then(
            (result) => {
              setBusy(false);
              if (result.ok) setDeleting(null);
              else setError(errorText(result.error, i18n.language));
            },
          );
        }}
      />
      <h3 id="person-trainings">
        {t('personnel.detail.trainings')}{' '}
        <span className="muted">({person.ausbildungen.length})</span>
      </h3>
      {person.ausbildungen.length === 0 ? (
        <p className="muted">{t('personnel.detail.noTrainings')}</p>
      ) : (
        <table className="person-table">
          <thead>
            <tr>
              <th scope="col">{t('personnel.column.training')}</th>
              <th scope="col">{t('personnel.column.date')}</th>
              <th scope="col">{t('personnel.column.validUntil')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('personnel.column.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {person.ausbildungen.map((training) => {
              const until = day(training.gueltig_bis);
              const state = expiry(until, today);
              const done = day(training.datum);
              return (
                <tr key={training.id} data-testid="person-training" data-expiry={state ?? ''}>
                  <td>
                    {training.bezeichnung} <NotSent state={training.localState} />
                  </td>
                  <td>{done ? formatDate(done, i18n.language) : ''}</td>
                  <td>
                    {until ? formatDate(until, i18n.language) : t('personnel.detail.noExpiry')}{' '}
                    {state ? (
                      <span className={`badge expiry-${state}`}>
                        {t(`personnel.expiry.${state}`)}
                      </span>
                    ) : null}
                  </td>
                  <td className="row-actions">
                    {training.localState === 'deleted' || !mayChange ? null : (
                      <button
                        type="button"
                        className="quiet danger-text"
                        data-testid="training-delete"
                        aria-label={t('personnel.training.deleteLabel', {
                          name: training.bezeichnung ?? '',
                        })}
                        onClick={() => {
                          setError(null);
                          setDeleting(training);
                        }}
                      >
                        {t('personnel.training.delete')}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Checks({ person }: { person: Person }) {
  const { t, i18n } = useTranslation();
  const today = serviceDay();
  return (
    <section className="person-section" aria-labelledby="person-checks">
      <h3 id="person-checks">
        {t('personnel.detail.checks')}{' '}
        <span className="muted">({person.ueberpruefungen.length})</span>
      </h3>
      {person.ueberpruefungen.length === 0 ? (
        <p className="muted">
          {person.confirmedAt ? t('personnel.detail.noChecks') : t('personnel.detail.checksNever')}
        </p>
      ) : (
        <table className="person-table">
          <thead>
            <tr>
              <th scope="col">{t('personnel.column.check')}</th>
              <th scope="col">{t('personnel.column.last')}</th>
              <th scope="col">{t('personnel.column.next')}</th>
              <th scope="col">{t('personnel.column.result')}</th>
            </tr>
          </thead>
          <tbody>
            {person.ueberpruefungen.map((check) => {
              const last = day(check.letzte_pruefung);
              const next = day(check.naechste_pruefung);
              const state = expiry(next, today);
              return (
                <tr key={check.id} data-testid="person-check" data-expiry={state ?? ''}>
                  <td>{check.bezeichnung}</td>
                  <td>{last ? formatDate(last, i18n.language) : ''}</td>
                  <td>
                    {next ? formatDate(next, i18n.language) : ''}{' '}
                    {state ? (
                      <span className={`badge expiry-${state}`}>{t(`personnel.due.${state}`)}</span>
                    ) : null}
                  </td>
                  <td>
                    {check.bestanden === null
                      ? ''
                      : check.bestanden
                        ? t('personnel.detail.passed')
                        : t('personnel.detail.failed')}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Honours({ person }: { person: Person }) {
  const { t, i18n } = useTranslation();
  if (person.ehrungen.length === 0) return null;
  return (
    <section className="person-section" aria-labelledby="person-honours">
      <h3 id="person-honours">{t('personnel.detail.honours')}</h3>
      <ul className="plain-list">
        {person.ehrungen.map((honour) => {
          const when = day(honour.datum);
          return (
            <li key={honour.id}>
              {honour.bezeichnung}
              {when ? <span className="muted"> · {formatDate(when, i18n.language)}</span> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** "Stand: vor 2 Minuten", "Wird aktualisiert …", "Offline – Stand …" for checks and honours. */
function AsOf({ person, refresh }: { person: Person; refresh: Refresh }) {
  const { t } = useTranslation();
  const confirmedAt =
    refresh.phase === 'done' && refresh.confirmedAt ? refresh.confirmedAt : person.confirmedAt;
  const { words, offline } = useAsOfWords(confirmedAt, refresh);
  return (
    <span
      className={offline ? 'as-of-text offline muted' : 'as-of-text muted'}
      data-testid="person-as-of"
    >
      {words}
      {refresh.phase === 'failed' ? ` · ${t('personnel.detail.refreshFailed')}` : null}
    </span>
  );
}
