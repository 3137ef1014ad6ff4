// The courses: the office's (every course, OfficeCourses.tsx) when the replica syncs with the
// office profile, else the trainer's: the filter bar, the list of course dates and the open
// course beside it (two panes on a wide window) or instead of it (one pane, with a way back).
// Shortcuts: "/" or Ctrl+F the search, Escape or Alt+Left back from the course to the list.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CourseSearchRange } from './CourseSearchRange';
import { ExportButton } from '../../components/ExportButton';
import { CALL_READS, type CourseDayItem } from '../../contract';
import { errorText } from '../../errors';
import { dialogOpen, isTyping } from '../../keyboard';
import { formatDate, serviceDay } from '../../format';
import { useFill } from '../../layout';
import { useApp, useSettings, useSync, useTablesVersion } from '../../stores';
import { CourseDetail } from './CourseDetail';
import { CourseList, type CourseListHandle } from './CourseList';
import { OfficeCourses } from './OfficeCourses';
import { addDays, addMonths, useCoursesUi } from './state';
import { useCourseDays, type DaysFilter } from './useCourseDays';
import './courses.css';

/** Wider than this (CSS px of the workspace), list and course stand side by side. */
const TWO_PANES_FROM = 980;
const DAYS_BACK = 14;
const DEFAULT_MONTHS_AHEAD = 3;

export function CoursesWorkspace() {
  // The replica's profile; before sync.status is read, the settings' (what the next sync uses).
  const replicaProfile = useSync((store) => store.status?.profile);
  const chosen = useSettings((store) => store.settings?.profile);
  const office = (replicaProfile ?? chosen) === 'office';
  return office ? <OfficeCourses /> : <TrainerCourses />;
}

function TrainerCourses() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const bridge = useApp((store) => store.bridge);
  const status = useSync((store) => store.status);
  const { filter, rangeSet, open, setFilter, setOpen } = useCoursesUi();
  const today = serviceDay();
  const root = useRef<HTMLElement>(null);
  const width = useFill(root);
  const wide = width >= TWO_PANES_FROM;
  const list = useRef<CourseListHandle>(null);
  const search = useRef<HTMLInputElement>(null);
  const detailHeading = useRef<HTMLHeadingElement>(null);

  // The default range: two weeks back to the end of the sync's course window.
  const [monthsAhead, setMonthsAhead] = useState<number | null>(null);
  useEffect(() => {
    if (!bridge) return;
    let alive = true;
    bridge.call('settings.get', {}).then(
      (settings) => alive && setMonthsAhead(settings.courseMonthsAhead || DEFAULT_MONTHS_AHEAD),
      () => alive && setMonthsAhead(DEFAULT_MONTHS_AHEAD),
    );
    return () => {
      alive = false;
    };
  }, [bridge]);
  const defaultRange = () => ({
    from: addDays(today, -DAYS_BACK),
    until: addMonths(today, monthsAhead ?? DEFAULT_MONTHS_AHEAD),
  });
  const defaultRangeRef = useRef(defaultRange);
  defaultRangeRef.current = defaultRange;
  useEffect(() => {
    if (!rangeSet && monthsAhead !== null) setFilter(defaultRangeRef.current());
  }, [rangeSet, monthsAhead, setFilter]);

  // "Nur meine Kurse": on when the signed-in user trains any course. Undecided (all courses
  // shown) until the replica has courses: a first sync may still be bringing them.
  const dataVersion = useTablesVersion(CALL_READS['courses.days']);
  const replicaCourses = status?.counts.course ?? 0;
  useEffect(() => {
    if (!bridge || filter.mine !== null) return;
    let alive = true;
    bridge.call('courses.days', { trainerId: 'self', limit: 1 }).then(
      (answer) => {
        if (!alive) return;
        if (answer.total > 0) setFilter({ mine: true });
        else if (replicaCourses > 0) setFilter({ mine: false });
      },
      () => alive && setFilter({ mine: false }),
    );
    return () => {
      alive = false;
    };
  }, [bridge, filter.mine, setFilter, dataVersion, replicaCourses]);

  // Typing: each key queries at once (the list keeps its rows until the answer; an answer to an
  // earlier key that comes late is dropped by useCourseDays).
  const onSearch = useCallback((search: string) => setFilter({ search }), [setFilter]);

  const rangeWrong = filter.from !== '' && filter.until !== '' && filter.from > filter.until;
  const daysFilter = useMemo<DaysFilter | null>(() => {
    if (!rangeSet || rangeWrong) return null;
    return {
      from: filter.from || undefined,
      until: filter.until || undefined,
      search: filter.search.trim() || undefined,
      trainerId: filter.mine ? 'self' : undefined,
    };
  }, [filter, rangeSet, rangeWrong]);
  const days = useCourseDays(daysFilter, today);

  const back = () => {
    if (!open) return;
    if (wide) {
      list.current?.focusDate(open.dateId ?? '');
      return;
    }
    const dateId = open.dateId;
    setOpen(null);
    window.requestAnimationFrame(() => list.current?.focusDate(dateId ?? ''));
  };

  const [focusDetail, setFocusDetail] = useState(false);
  const detailFocused = useCallback(() => setFocusDetail(false), []);
  const openCourse = (item: CourseDayItem, moveFocus: boolean) => {
    setOpen({ courseId: item.courseId, dateId: item.dateId });
    // The heading takes the focus once the course is shown (it may still be loading).
    setFocusDetail(moveFocus || !wide);
  };

  // The workspace's shortcuts.
  const backRef = useRef(back);
  backRef.current = back;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || dialogOpen()) return;
      const typing = isTyping(event.target);
      if ((event.key === 'f' || event.key === 'F') && event.ctrlKey && !event.altKey) {
        event.preventDefault();
        search.current?.focus();
        search.current?.select();
        return;
      }
      if (event.key === '/' && !typing && !event.ctrlKey && !event.altKey) {
        event.preventDefault();
        search.current?.focus();
        search.current?.select();
        return;
      }
      const inDetail =
        event.target instanceof Element && event.target.closest('.course-detail') !== null;
      // In a text box Alt+Left moves the caret a word (macOS): not a way back.
      if (event.key === 'ArrowLeft' && event.altKey && !event.ctrlKey && !typing) {
        event.preventDefault();
        backRef.current();
        return;
      }
      if (event.key === 'Escape' && inDetail && !typing) {
        event.preventDefault();
        backRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const courseCount = status?.counts.course;
  const replicaEmpty =
    courseCount === 0 || (status !== null && status.lastSuccessfulSyncAt === null && !courseCount);
  const empty = replicaEmpty ? (
    <div className="empty-state" data-testid="courses-empty" data-reason="replica">
      <p className="empty-title">{t('courses.empty.replicaTitle')}</p>
      <p>{t('courses.empty.replica')}</p>
    </div>
  ) : filter.search.trim() ? (
    <div className="empty-state" data-testid="courses-empty" data-reason="search">
      <p className="empty-title">
        {t('courses.empty.searchTitle', { text: filter.search.trim() })}
      </p>
      <p>{t('courses.empty.search')}</p>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          setFilter({ search: '' });
          search.current?.focus();
        }}
      >
        {t('courses.filter.clearSearch')}
      </button>
    </div>
  ) : (
    <div className="empty-state" data-testid="courses-empty" data-reason="range">
      <p className="empty-title">
        {filter.mine ? t('courses.empty.rangeMineTitle') : t('courses.empty.rangeTitle')}
      </p>
      <p>
        {t('courses.empty.range', {
          from: filter.from ? formatDate(filter.from, language) : '…',
          until: filter.until ? formatDate(filter.until, language) : '…',
        })}
      </p>
      {filter.mine ? (
        <button type="button" className="secondary" onClick={() => setFilter({ mine: false })}>
          {t('courses.filter.showAll')}
        </button>
      ) : null}
    </div>
  );

  const showList = wide || !open;
  const showDetail = open !== null;
  const totalText =
    days.total === null
      ? ''
      : t('courses.list.count', { count: days.total, n: days.total.toLocaleString(language) });

  return (
    <section
      ref={root}
      className={`courses-workspace ${wide ? 'two-panes' : 'one-pane'}`}
      aria-labelledby="workspace-title"
      data-testid="courses-workspace"
    >
      <div className="courses-list-pane" hidden={!showList}>
        <div className="courses-head">
          <h1 id="workspace-title">{t('courses.title')}</h1>
          <span className="muted courses-total" aria-live="polite" data-testid="courses-total">
            {totalText}
          </span>
          <ExportButton
            className="secondary"
            label={t('courses.export.calendar')}
            data-testid="export-courses-ics"
            request={() => ({
              format: 'ics',
              what: 'courses',
              ...(filter.from ? { from: filter.from } : {}),
              ...(filter.until ? { until: filter.until } : {}),
              ...(filter.mine ? { trainerId: 'self' } : {}),
              language: language === 'en' ? 'en' : 'de',
            })}
          />
        </div>
        <form
          className="courses-filter"
          role="search"
          aria-label={t('courses.filter.label')}
          onSubmit={(event) => {
            event.preventDefault();
            list.current?.focus();
          }}
        >
          <CourseSearchRange
            searchId="course-search"
            searchRef={search}
            list={list}
            text={filter.search}
            onText={onSearch}
            from={filter.from}
            until={filter.until}
            onDay={(end, day) => setFilter({ [end]: day })}
          >
            <button
              type="button"
              className="secondary"
              data-testid="course-today"
              title={t('courses.filter.todayTitle')}
              onClick={() => {
                const inRange =
                  (filter.from === '' || filter.from <= today) &&
                  (filter.until === '' || filter.until >= today);
                if (inRange) list.current?.today();
                else setFilter(defaultRange());
              }}
            >
              {t('courses.filter.today')}
            </button>
          </CourseSearchRange>
          <label className="check filter-mine">
            <input
              type="checkbox"
              checked={filter.mine === true}
              data-testid="course-filter-mine"
              onChange={(event) => setFilter({ mine: event.target.checked })}
            />
            {t('courses.filter.mine')}
          </label>
        </form>
        {days.error ? (
          <p className="form-error" role="alert" data-testid="courses-error">
            {errorText(days.error, language)}
          </p>
        ) : null}
        <h2 id="course-list-label" className="visually-hidden">
          {t('courses.list.label')}
        </h2>
        <CourseList
          days={days}
          handle={list}
          labelledBy="course-list-label"
          openCourseId={open?.courseId ?? null}
          openDateId={open?.dateId ?? null}
          onOpen={(item) => openCourse(item, true)}
          onClick={(item) => openCourse(item, false)}
          empty={empty}
        />
        <p className="keys-hint muted">{t('courses.list.keys')}</p>
      </div>
      {showDetail && open ? (
        <div className="courses-detail-pane">
          <CourseDetail
            key={open.courseId}
            courseId={open.courseId}
            headingRef={detailHeading}
            onBack={wide ? null : back}
            wantFocus={focusDetail}
            onFocused={detailFocused}
          />
        </div>
      ) : wide ? (
        <div className="courses-detail-pane placeholder-pane" data-testid="course-detail-none">
          <p className="muted">{t('courses.detail.none')}</p>
        </div>
      ) : null}
    </section>
  );
}
