// One client of the clients workspace: its data (address, contact), its courses (course type,
// dates and place, each opening the course in the courses workspace) and its participants, with
// how current what it shows is.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BackButton } from '../../components/BackButton';
import { useQuery } from '../../data';
import { errorText } from '../../errors';
import { absoluteTime, formatNumber } from '../../format';
import { useAsOfWords, useRefresh, type Refresh } from '../../refresh';
import { ClientCourses } from '../courses/ClientDialog';

const wordOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

export function ClientDetail(props: {
  clientId: string;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  wantFocus: boolean;
  onFocused(): void;
  onBack: (() => void) | null;
  onOpenCourse(courseId: string): void;
  /** The refresh on opening came back (the list's count of participants reads again). */
  onRefreshed(): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const client = useQuery('clients.get', { id: props.clientId });
  const participants = useQuery('clients.participants', { clientId: props.clientId });
  // Opened online: the client's participants now (the sync reads them in turns).
  const { reload: reloadClient } = client;
  const { reload: reloadParticipants } = participants;
  const { onRefreshed } = props;
  const refresh = useRefresh('client', props.clientId, () => {
    reloadClient();
    reloadParticipants();
    onRefreshed();
  });
  const data = client.data;
  const { headingRef, wantFocus, onFocused } = props;
  useEffect(() => {
    if (data === undefined || !wantFocus) return;
    headingRef.current?.focus();
    onFocused();
  }, [data, wantFocus, headingRef, onFocused]);

  const attributes = data?.attributes ?? {};
  const street =
    wordOf(attributes.street) ??
    ([wordOf(attributes.street_name), wordOf(attributes.street_number)].filter(Boolean).join(' ') ||
      null);
  const town = [wordOf(attributes.postal_code), wordOf(attributes.city) ?? data?.city]
    .filter(Boolean)
    .join(' ');
  const email = wordOf(attributes.email);
  const facts: { key: string; label: string; value: React.ReactNode }[] = [
    {
      key: 'number',
      label: t('clients.customerNumber'),
      value: wordOf(attributes.customer_number),
    },
    {
      key: 'address',
      label: t('clients.address'),
      value: [street, town].filter(Boolean).join(', ') || null,
    },
    {
      key: 'contact',
      label: t('clients.contact'),
      value: wordOf(attributes.contact_person) ?? wordOf(attributes.contact_person_name),
    },
    {
      key: 'email',
      label: t('clients.email'),
      value: email ? <a href={`mailto:${email}`}>{email}</a> : null,
    },
    { key: 'phone', label: t('clients.phone'), value: wordOf(attributes.phone) },
  ].filter((fact) => fact.value);
  const courseLabel = new Map(
    (data?.courses ?? []).map((course) => [
      course.id,
      [course.courseNumber, course.title].filter(Boolean).join(' ') || course.id,
    ]),
  );

  return (
    <article
      className="client-detail"
      aria-labelledby="client-title"
      data-testid="client-detail"
      data-client-id={props.clientId}
    >
      {props.onBack ? (
        <BackButton
          onBack={props.onBack}
          label={t('clients.back')}
          title={t('clients.backTitle')}
          testId="client-back"
        />
      ) : null}
      {data === undefined && client.error ? (
        <p className="form-error" role="alert">
          {errorText(client.error, language)}
        </p>
      ) : data === undefined ? (
        <p aria-busy="true">{t('clients.loading')}</p>
      ) : data === null ? (
        <>
          <h2 id="client-title" ref={props.headingRef} tabIndex={-1}>
            {t('clients.unnamed')}
          </h2>
          <p>{t('clients.unknown')}</p>
        </>
      ) : (
        <>
          <h2
            id="client-title"
            ref={props.headingRef}
            tabIndex={-1}
            data-testid="client-title"
            data-workspace-start
          >
            {data.name?.trim() || t('clients.unnamed')}
          </h2>
          <AsOf confirmedAt={data.confirmedAt} refresh={refresh} />
          <section aria-labelledby="client-data-title" className="client-section">
            <h3 id="client-data-title">{t('clients.data')}</h3>
            {facts.length === 0 ? (
              <p className="muted">{t('clients.noData')}</p>
            ) : (
              <dl className="facts" data-testid="client-facts">
                {facts.map((fact) => (
                  <div key={fact.key} className="client-fact">
                    <dt>{fact.label}</dt>
                    <dd>{fact.value}</dd>
                  </div>
                ))}
              </dl>
            )}
          </section>
          <section aria-labelledby="client-courses-title" className="client-section">
            <h3 id="client-courses-title">
              {t('clients.courses')}{' '}
              <span className="muted count-note">
                {t('clients.coursesCount', { count: data.courses.length })}
              </span>
            </h3>
            <ClientCourses courses={data.courses} onOpenCourse={props.onOpenCourse} />
          </section>
          <section aria-labelledby="client-participants-title" className="client-section">
            <h3 id="client-participants-title">
              {t('clients.participantsTitle')}{' '}
              <span className="muted count-note">
                {participants.data ? formatNumber(participants.data.length, language) : ''}
              </span>
            </h3>
            {participants.error ? (
              <p className="form-error" role="alert">
                {errorText(participants.error, language)}
              </p>
            ) : participants.data && participants.data.length === 0 ? (
              <p className="muted">{t('clients.noParticipants')}</p>
            ) : participants.data ? (
              <div className="client-participants-frame">
                <table className="client-participants" data-testid="client-participants">
                  <thead>
                    <tr>
                      <th scope="col">{t('clients.colName')}</th>
                      <th scope="col">{t('clients.colStatus')}</th>
                      <th scope="col">{t('clients.colCourse')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {participants.data.map((person) => (
                      <tr key={person.id} data-testid="client-participant">
                        <td>
                          {[person.lastName, person.firstName].filter(Boolean).join(', ') || '—'}
                        </td>
                        <td>
                          {person.status
                            ? t(`clients.status.${person.status}`, {
                                defaultValue: person.status,
                              })
                            : '—'}
                        </td>
                        <td>
                          {person.courseId
                            ? (courseLabel.get(person.courseId) ??
                              t('clients.otherCourse', { id: person.courseId }))
                            : '—'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <p aria-busy="true">{t('clients.loading')}</p>
            )}
          </section>
        </>
      )}
    </article>
  );
}

/** "Stand: vor 2 Minuten", "Wird aktualisiert …", "Offline – Stand …". */
function AsOf({ confirmedAt, refresh }: { confirmedAt: string | null; refresh: Refresh }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const at = refresh.phase === 'done' && refresh.confirmedAt ? refresh.confirmedAt : confirmedAt;
  const { words, offline } = useAsOfWords(at, refresh);
  return (
    <p className="client-as-of muted">
      <span
        className={offline ? 'as-of-text offline' : 'as-of-text'}
        data-testid="client-as-of"
        data-refresh={refresh.phase}
        title={at ? absoluteTime(at, language) : undefined}
        aria-live="polite"
      >
        {words}
      </span>
      {refresh.phase === 'failed' ? (
        <span className="as-of-error">
          {' '}
          {t('courses.asOf.failed', { reason: errorText(refresh.error, language) })}
        </span>
      ) : null}
    </p>
  );
}
