// One course: its facts (dates in Europe/Berlin, the place with a map link, client, trainers),
// the participants (the work at the venue), the custom fields and the service's forms of it. Opening it asks the core for
// a refresh when online and says how fresh the data is ("Stand: vor 2 Minuten"); a failed
// refresh is said quietly, the course stays usable from the replica.
import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { BackButton } from '../../components/BackButton';
import { ExportButton } from '../../components/ExportButton';
import { FormsSection } from '../../components/FormsSection';
import { type CourseDetail as Course } from '../../contract';
import { useQuery } from '../../data';
import { errorText } from '../../errors';
import { absoluteTime, formatDay, formatTime } from '../../format';
import { useAsOfWords, useRefresh, type Refresh } from '../../refresh';
import { NotSent, StatusBadge } from './bits';
import { mapUrl } from './logic';
import { useCoursesUi } from './state';
import { CustomFields } from './CustomFields';
import { Participants } from './Participants';

export function CourseDetail(props: {
  courseId: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  /** One pane: the way back to the list (Escape, Alt+Left). */
  onBack: (() => void) | null;
  /** Opened from the keyboard: the heading takes the focus once shown (then onFocused). */
  wantFocus: boolean;
  onFocused(): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { courseId } = props;
  const course = useQuery('courses.get', { id: courseId });
  const participations = useQuery('participations.list', { courseId, includeCancelled: true });
  const { reload: reloadCourse } = course;
  const { reload: reloadParticipations } = participations;
  const refresh = useRefresh('course', courseId, () => {
    reloadCourse();
    reloadParticipations();
  });
  const pane = useRef<HTMLDivElement>(null);

  const data = course.data;
  const { headingRef, wantFocus, onFocused } = props;
  useEffect(() => {
    if (data === undefined || !wantFocus) return;
    headingRef.current?.focus();
    onFocused();
  }, [data, wantFocus, headingRef, onFocused]);
  return (
    <article
      className="course-detail"
      ref={pane}
      aria-labelledby="course-detail-title"
      data-testid="course-detail"
      data-course-id={courseId}
    >
      {props.onBack ? (
        <BackButton
          onBack={props.onBack}
          label={t('courses.detail.back')}
          title={t('courses.detail.backTitle')}
          testId="course-back"
        />
      ) : null}
      {data === undefined && course.error ? (
        <p className="form-error" role="alert">
          {errorText(course.error, language)}
        </p>
      ) : data === undefined ? (
        <p className="loading" aria-busy="true">
          {t('courses.detail.loading')}
        </p>
      ) : data === null ? (
        <>
          <h2
            id="course-detail-title"
            ref={props.headingRef}
            tabIndex={-1}
            data-testid="course-detail-title"
          >
            {t('courses.detail.goneTitle')}
          </h2>
          <p>{t('courses.detail.gone')}</p>
        </>
      ) : (
        <>
          <header className="detail-head">
            <h2
              id="course-detail-title"
              ref={props.headingRef}
              tabIndex={-1}
              data-testid="course-detail-title"
              // One pane with a course open: Alt+1 lands here (the list is behind Escape).
              data-workspace-start
            >
              {data.title || t('courses.untitled')}
            </h2>
            <div className="detail-sub">
              {data.courseNumber ? <span className="mono-num">{data.courseNumber}</span> : null}
              <StatusBadge status={data.status} />
              {data.courseType ? <span>{data.courseType}</span> : null}
              {data.localState ? <NotSent state={data.localState} /> : null}
              <AsOf course={data} refresh={refresh} />
            </div>
            <CourseExports courseId={courseId} />
          </header>
          <CourseFacts course={data} />
          <Participants
            courseId={courseId}
            course={data}
            query={participations}
            scrollElement={pane}
          />
          <CustomFields courseId={courseId} fields={data.customfields} />
          <FormsSection
            typ="k"
            id={courseId}
            className="course-forms"
            refreshed={refresh.phase === 'done'}
          />
        </>
      )}
    </article>
  );
}

/** "Stand: vor 2 Minuten", "Wird aktualisiert …", "Offline – Stand …". */
function AsOf({ course, refresh }: { course: Course; refresh: Refresh }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  // The course's own "as of" is the older of its record's and its participants'; a refresh of
  // this opening has just read the participants and fields, which is what the trainer works on.
  const confirmedAt = newer(
    course.confirmedAt,
    refresh.phase === 'done' ? refresh.confirmedAt : null,
  );
  const { words, offline } = useAsOfWords(confirmedAt, refresh);
  return (
    <span className="as-of">
      <span
        className={offline ? 'as-of-text offline' : 'as-of-text'}
        data-testid="as-of"
        data-confirmed-at={confirmedAt ?? ''}
        data-refresh={refresh.phase}
        title={confirmedAt ? absoluteTime(confirmedAt, language) : undefined}
        aria-live="polite"
      >
        {words}
      </span>
      {refresh.phase === 'failed' ? (
        <span className="as-of-error" data-testid="refresh-error">
          {t('courses.asOf.failed', { reason: errorText(refresh.error, language) })}
        </span>
      ) : null}
      {refresh.phase === 'done' && refresh.gone ? (
        <span className="as-of-error">{t('courses.asOf.gone')}</span>
      ) : null}
    </span>
  );
}

function newer(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

function text(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number') return String(value);
  return null;
}

/** The place in one line: description, street, addition, postal code and town. */
function placeOf(course: Course): string {
  const location = course.location ?? {};
  const street =
    text(location.street) ??
    ([text(location.street_name), text(location.street_number)].filter(Boolean).join(' ') || null);
  const town = [text(location.postal_code), text(location.city)].filter(Boolean).join(' ');
  return [text(location.description), street, text(location.address_addition), town]
    .filter(Boolean)
    .join(', ');
}

/** "Do., 26. Nov. 2026, 08:30–16:30". */
function dateText(date: Course['dates'][number], language: string): string {
  return [
    date.from ? formatDay(date.from, language) : '—',
    date.from ? `, ${formatTime(date.from, language)}` : '',
    date.to ? `–${formatTime(date.to, language)}` : '',
  ].join('');
}

/**
 * The facts folded to one line (the day that is not over yet, and the place) until asked for:
 * at the venue the participants come first. Open or folded stays as chosen.
 */
function CourseFacts({ course }: { course: Course }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const open = useCoursesUi((store) => store.factsOpen);
  const setOpen = useCoursesUi((store) => store.setFactsOpen);
  const { dates } = course;
  const now = Date.now();
  const index = Math.max(
    0,
    dates.findIndex((date) => date.to !== null && Date.parse(date.to) >= now),
  );
  const date = dates[index];
  const place = placeOf(course);
  return (
    <details
      className="course-facts-box"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      data-testid="course-facts"
    >
      <summary>
        <span className="facts-summary">
          {date ? (
            <span>
              {dates.length > 1
                ? `${t('courses.list.dayOf', { n: index + 1, m: dates.length })}: `
                : null}
              {dateText(date, language)}
            </span>
          ) : (
            <span className="muted">{t('courses.detail.noDates')}</span>
          )}
          {place ? <span className="muted facts-place"> · {place}</span> : null}
        </span>
        <span className="facts-toggle">
          {open ? t('courses.detail.factsLess') : t('courses.detail.factsMore')}
        </span>
      </summary>
      <Facts course={course} />
    </details>
  );
}

function Facts({ course }: { course: Course }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const location = course.location ?? {};
  const place = placeOf(course);
  const map = mapUrl(location.geo);
  const comment = text(course.attributes.comment);
  const organizer = text(course.attributes.organizer_on_site);
  return (
    <dl className="course-facts">
      <div className="fact">
        <dt>{t('courses.detail.dates')}</dt>
        <dd>
          {course.dates.length === 0 ? (
            <span className="muted">{t('courses.detail.noDates')}</span>
          ) : (
            <ul className="date-list" data-testid="course-dates">
              {course.dates.map((date, index) => (
                <li key={date.id}>
                  {course.dates.length > 1 ? (
                    <span className="muted">
                      {t('courses.list.dayOf', { n: index + 1, m: course.dates.length })}:{' '}
                    </span>
                  ) : null}
                  {dateText(date, language)}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
      <div className="fact">
        <dt>{t('courses.detail.location')}</dt>
        <dd data-testid="course-location">
          {place || <span className="muted">{t('courses.detail.noLocation')}</span>}
          {map ? (
            <>
              {' '}
              <a href={map} target="_blank" rel="noopener noreferrer" data-testid="map-link">
                {t('courses.detail.map')}
                <span className="visually-hidden"> {t('courses.detail.newWindow')}</span>
              </a>
            </>
          ) : null}
        </dd>
      </div>
      <div className="fact">
        <dt>{t('courses.detail.client')}</dt>
        <dd>{course.client?.name ?? <span className="muted">—</span>}</dd>
      </div>
      <div className="fact">
        <dt>{t('courses.detail.trainers')}</dt>
        <dd>
          {course.trainers.length > 0 ? (
            trainerNames(course.trainers, t)
          ) : (
            <span className="muted">—</span>
          )}
        </dd>
      </div>
      {organizer ? (
        <div className="fact">
          <dt>{t('courses.detail.organizer')}</dt>
          <dd>{organizer}</dd>
        </div>
      ) : null}
      {comment ? (
        <div className="fact wide">
          <dt>{t('courses.detail.comment')}</dt>
          <dd className="pre-line">{comment}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/**
 * The trainers the replica knows by name, and how many more there are (a trainer's replica holds
 * only the people it needs: the co-trainer may be one of those it does not).
 */
function trainerNames(
  trainers: Course['trainers'],
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  const named = trainers.flatMap((trainer) => (trainer.name ? [trainer.name] : []));
  const others = trainers.length - named.length;
  if (others === 0) return named.join(', ');
  const more = t('courses.detail.moreTrainers', { count: others });
  return named.length
    ? `${named.join(', ')} ${more}`
    : t('courses.detail.otherTrainers', { count: others });
}

/**
 * The course as paper and files: the attendance list to print, the certificates of those marked
 * present, the participants, the dates.
 */
function CourseExports(props: { courseId: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'en' ? 'en' : 'de';
  const { courseId } = props;
  return (
    <div className="detail-exports" role="group" aria-label={t('courses.export.label')}>
      <ExportButton
        className="secondary"
        label={t('courses.export.attendance')}
        data-testid="export-attendance-pdf"
        request={{ format: 'pdf', what: 'participants', courseId, language }}
      />
      <ExportButton
        className="secondary"
        label={t('courses.export.certificates')}
        data-testid="export-certificates-pdf"
        request={{ format: 'pdf', what: 'certificates', courseId, language }}
      />
      <ExportButton
        className="secondary"
        label={t('courses.export.participants')}
        data-testid="export-participants-csv"
        request={{ format: 'csv', what: 'participants', courseId, language }}
      />
      <ExportButton
        className="secondary"
        label={t('courses.export.dates')}
        data-testid="export-course-ics"
        request={{ format: 'ics', what: 'courses', courseId, language }}
      />
    </div>
  );
}
