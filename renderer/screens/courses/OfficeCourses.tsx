// The office's courses (profile Büro): every course of the sync's window, one row per course,
// filtered by text, date range, trainer, course type and client; a new course (N); the open
// course beside the list (two panes) or instead of it (one pane), with everything the trainer's
// course offers. Shortcuts: "/" or Ctrl+F the search, Down from it into the list, Enter opens,
// N a new course, Escape or Alt+Left back to the list.
import {
  memo,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import { CourseSearchRange } from './CourseSearchRange';
import { SelectField } from '../../components/Field';
import type { CourseListItem } from '../../contract';
import { useQuery, useWindowedQuery } from '../../data';
import { errorText } from '../../errors';
import { formatDate, formatNumber, serviceDay } from '../../format';
import { dialogOpen, isTyping } from '../../keyboard';
import { useFill } from '../../layout';
import { useRovingRows } from '../../list-keys';
import { useSync } from '../../stores';
import { NotSent, StatusBadge } from './bits';
import { searchTypedFurther } from './logic';
import { CourseDetail } from './CourseDetail';
import { NewCourseDialog } from './NewCourseDialog';
import { addDays, useCoursesUi } from './state';
import './courses.css';

/** Wider than this (CSS px of the workspace), list and course stand side by side. */
const TWO_PANES_FROM = 980;
const DAYS_BACK = 14;
const ROW_HEIGHT = 66;

export function OfficeCourses() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { office: filter, officeRangeSet, open, setOffice, setOpen } = useCoursesUi();
  const today = serviceDay();
  const root = useRef<HTMLElement>(null);
  const wide = useFill(root) >= TWO_PANES_FROM;
  const list = useRef<OfficeListHandle>(null);
  const search = useRef<HTMLInputElement>(null);
  const detailHeading = useRef<HTMLHeadingElement>(null);
  const [creating, setCreating] = useState(false);
  const [range, setRange] = useState({ from: 0, to: 40 });
  const onRange = useCallback((from: number, to: number) => setRange({ from, to }), []);
  const replicaCourses = useSync((store) => store.status?.counts.course);

  // The default range: two weeks back, open ahead (the sync's window ends it).
  useEffect(() => {
    if (!officeRangeSet) setOffice({ from: addDays(today, -DAYS_BACK), until: '' });
  }, [officeRangeSet, setOffice, today]);

  const courses = useWindowedQuery(
    'courses.list',
    {
      from: filter.from || undefined,
      until: filter.until || undefined,
      search: filter.search.trim() || undefined,
      trainerId: filter.trainerId || undefined,
      courseTypeId: filter.courseTypeId || undefined,
      clientId: filter.clientId || undefined,
      sort: 'date',
    },
    range,
    searchTypedFurther,
  );
  const total = courses.head?.total ?? null;

  const trainers = useQuery('courses.trainers', {});
  const reference = useQuery('reference.get', {});
  const clients = useQuery('clients.list', {});

  const [focusDetail, setFocusDetail] = useState(false);
  const detailFocused = useCallback(() => setFocusDetail(false), []);
  const openCourse = useCallback(
    (course: CourseListItem, byKeyboard: boolean) => {
      setOpen({ courseId: course.id, dateId: null });
      setFocusDetail(byKeyboard || !wide);
    },
    [setOpen, wide],
  );
  const back = () => {
    if (!open) return;
    if (!wide) setOpen(null);
    window.requestAnimationFrame(() => list.current?.focus());
  };

  // The workspace's shortcuts.
  const keys = useRef({ back, create: () => setCreating(true) });
  keys.current = { back, create: () => setCreating(true) };
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
      if (typing || event.ctrlKey || event.metaKey) return;
      if (event.key === '/' && !event.altKey) {
        event.preventDefault();
        search.current?.focus();
        search.current?.select();
        return;
      }
      if ((event.key === 'n' || event.key === 'N') && !event.altKey) {
        event.preventDefault();
        keys.current.create();
        return;
      }
      const inDetail =
        event.target instanceof Element && event.target.closest('.course-detail') !== null;
      if (
        (event.key === 'ArrowLeft' && event.altKey) ||
        (event.key === 'Escape' && inDetail && !event.altKey)
      ) {
        event.preventDefault();
        keys.current.back();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Typing: each key queries at once (the list keeps its rows until the answer; an answer to an
  // earlier key that comes late is dropped by the query).
  const onSearch = useCallback((search: string) => setOffice({ search }), [setOffice]);
  const closeCreate = useCallback(
    (createdId: string | null) => {
      setCreating(false);
      if (!createdId) return;
      setOpen({ courseId: createdId, dateId: null });
      // Its heading once it is shown (after the dialog gave the focus back where it was).
      setFocusDetail(true);
    },
    [setOpen],
  );

  const filtered =
    filter.search.trim() !== '' ||
    filter.trainerId !== '' ||
    filter.courseTypeId !== '' ||
    filter.clientId !== '';
  const empty =
    replicaCourses === 0 ? (
      <div className="empty-state" data-testid="courses-empty" data-reason="replica">
        <p className="empty-title">{t('courses.empty.replicaTitle')}</p>
        <p>{t('courses.empty.replica')}</p>
      </div>
    ) : (
      <div className="empty-state" data-testid="courses-empty" data-reason="filter">
        <p className="empty-title">{t('courses.office.emptyTitle')}</p>
        <p>
          {t('courses.office.empty', {
            from: filter.from ? formatDate(filter.from, language) : '…',
            until: filter.until ? formatDate(filter.until, language) : '…',
          })}
        </p>
      </div>
    );

  const showList = wide || !open;
  // The three choices read their options once per answer, not on every key typed in the search.
  const { trainerId, courseTypeId, clientId } = filter;
  const choices = useMemo(() => {
    const choice = (
      key: 'trainerId' | 'courseTypeId' | 'clientId',
      value: string,
      label: string,
      options: { id: string; label: string }[],
    ) => (
      <SelectField
        label={label}
        className="office-filter-choice"
        value={value}
        onChange={(event) => setOffice({ [key]: event.target.value })}
        data-testid={`office-filter-${key}`}
      >
        <option value="">{t('courses.office.any')}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </SelectField>
    );
    return (
      <>
        {choice(
          'trainerId',
          trainerId,
          t('courses.office.trainer'),
          (trainers.data ?? []).map((trainer) => ({
            id: trainer.id,
            label: trainer.name ?? t('courses.office.unknownTrainer', { id: trainer.id }),
          })),
        )}
        {choice(
          'courseTypeId',
          courseTypeId,
          t('courses.office.courseType'),
          (reference.data?.courseTypes ?? []).map((type) => ({
            id: type.id,
            label: type.name ?? type.shortName ?? type.id,
          })),
        )}
        {choice(
          'clientId',
          clientId,
          t('courses.office.client'),
          (clients.data ?? []).map((client) => ({
            id: client.id,
            label: client.name ?? client.id,
          })),
        )}
      </>
    );
  }, [
    t,
    setOffice,
    trainerId,
    courseTypeId,
    clientId,
    trainers.data,
    reference.data,
    clients.data,
  ]);

  return (
    <section
      ref={root}
      className={`courses-workspace office-courses ${wide ? 'two-panes' : 'one-pane'}`}
      aria-labelledby="workspace-title"
      data-testid="courses-workspace"
      data-profile="office"
    >
      <div className="courses-list-pane" hidden={!showList}>
        <div className="courses-head">
          <h1 id="workspace-title">{t('courses.office.title')}</h1>
          <span className="muted courses-total" aria-live="polite" data-testid="courses-total">
            {total === null
              ? ''
              : t('courses.office.count', { count: total, n: formatNumber(total, language) })}
          </span>
          <button
            type="button"
            className="office-new-course"
            aria-keyshortcuts="N"
            title={t('courses.create.buttonTitle')}
            data-testid="course-new"
            onClick={() => setCreating(true)}
          >
            + {t('courses.create.button')}
          </button>
        </div>
        <form
          className="courses-filter office-filter"
          role="search"
          aria-label={t('courses.filter.label')}
          onSubmit={(event) => {
            event.preventDefault();
            list.current?.focus();
          }}
        >
          <CourseSearchRange
            searchId="office-course-search"
            searchRef={search}
            list={list}
            text={filter.search}
            onText={onSearch}
            from={filter.from}
            until={filter.until}
            onDay={(end, day) => setOffice({ [end]: day })}
          />
          <div className="office-filter-choices">
            {choices}
            {filtered ? (
              <button
                type="button"
                className="secondary office-filter-reset"
                data-testid="office-filter-reset"
                onClick={() => {
                  setOffice({ search: '', trainerId: '', courseTypeId: '', clientId: '' });
                }}
              >
                {t('courses.office.reset')}
              </button>
            ) : null}
          </div>
        </form>
        {courses.error ? (
          <p className="form-error" role="alert" data-testid="courses-error">
            {errorText(courses.error, language)}
          </p>
        ) : null}
        <h2 id="office-course-list-label" className="visually-hidden">
          {t('courses.office.listLabel')}
        </h2>
        {total === 0 ? (
          <div
            className="course-list course-list-empty"
            data-testid="course-list"
            data-total={0}
            data-search={courses.shownArgs?.search ?? ''}
          >
            {empty}
          </div>
        ) : (
          <OfficeCourseList
            total={total ?? 0}
            itemAt={courses.itemAt}
            openId={open?.courseId ?? null}
            onOpen={openCourse}
            onRange={onRange}
            handle={list}
            labelledBy="office-course-list-label"
            shownSearch={courses.head ? (courses.shownArgs?.search ?? '') : undefined}
          />
        )}
        <p className="keys-hint muted">{t('courses.office.keys')}</p>
      </div>
      {open ? (
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
      <NewCourseDialog open={creating} onClose={closeCreate} />
    </section>
  );
}

interface OfficeListHandle {
  /** Puts the focus on the active row (the search's Down arrow, back from the course). */
  focus(): void;
}

/**
 * The courses, virtualized over the whole list; one row in the tab order. Drawn again when its
 * rows or the open course change, not on every key typed in the search.
 */
const OfficeCourseList = memo(function OfficeCourseList(props: {
  total: number;
  itemAt(index: number): CourseListItem | undefined;
  openId: string | null;
  onOpen(course: CourseListItem, byKeyboard: boolean): void;
  onRange(from: number, to: number): void;
  handle: Ref<OfficeListHandle>;
  labelledBy: string;
  /** The search whose rows the list shows (data-search: what a bench and tests wait for); none before the first answer. */
  shownSearch: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { total, itemAt } = props;
  const { scroller, virtualizer, rows, index, setActive, move, moveKey } = useRovingRows({
    count: total,
    rowHeight: ROW_HEIGHT,
    overscan: 8,
    onRange: props.onRange,
  });
  useImperativeHandle(props.handle, () => ({ focus: () => move(index) }));
  const participantsTitle = t('courses.list.participantsTitle');
  const untitled = t('courses.untitled');

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (moveKey(event, '[data-testid="course-row"]')) return;
    if (event.key !== 'Enter' || event.altKey || event.ctrlKey || event.metaKey) return;
    if (!(event.target as HTMLElement).matches('[data-testid="course-row"]')) return;
    const course = itemAt(index);
    if (course) props.onOpen(course, true);
    event.preventDefault();
  };

  return (
    <div
      className="course-list"
      ref={scroller}
      role="list"
      aria-labelledby={props.labelledBy}
      data-testid="course-list"
      data-total={total}
      data-search={props.shownSearch}
      data-workspace-start
      tabIndex={-1}
      onFocus={(event) => {
        if (event.target === event.currentTarget && total > 0) move(index);
      }}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {rows.map((row) => {
          const course = itemAt(row.index);
          const style = {
            position: 'absolute' as const,
            top: 0,
            left: 0,
            right: 0,
            height: row.size,
            transform: `translateY(${row.start}px)`,
          };
          if (!course)
            return (
              <div key={row.key} style={style} role="listitem" aria-busy="true">
                <div className="course-row placeholder" aria-hidden="true">
                  <span className="skeleton" />
                </div>
              </div>
            );
          const first = course.firstDate ? formatDate(course.firstDate, language) : '—';
          const last = course.lastDate ? formatDate(course.lastDate, language) : null;
          const meta = [course.courseNumber, course.courseType, course.client, course.city].filter(
            Boolean,
          );
          const full =
            course.maxParticipants !== null && course.participants >= course.maxParticipants;
          const classes = ['course-row', 'office-course-row'];
          if (course.id === props.openId) classes.push('open');
          if (course.status === 'cancelled') classes.push('cancelled');
          return (
            <div key={row.key} style={style} role="listitem">
              <div
                className={classes.join(' ')}
                data-testid="course-row"
                data-course-id={course.id}
                data-row-index={row.index}
                tabIndex={row.index === index ? 0 : -1}
                aria-current={course.id === props.openId ? 'true' : undefined}
                onClick={() => {
                  setActive(row.index);
                  props.onOpen(course, false);
                }}
                onFocus={() => setActive(row.index)}
              >
                <span className="course-time">
                  {first}
                  {last && last !== first ? (
                    <span className="course-daynum muted">– {last}</span>
                  ) : null}
                </span>
                <span className="course-main">
                  <span className="course-title">{course.title || untitled}</span>
                  <span className="course-meta">{meta.join(' · ')}</span>
                </span>
                <span className="course-side">
                  <span
                    className={full ? 'course-count full' : 'course-count'}
                    title={participantsTitle}
                  >
                    <span className="visually-hidden">{participantsTitle}: </span>
                    {course.maxParticipants !== null
                      ? `${course.participants}/${course.maxParticipants}`
                      : course.participants}
                  </span>
                  <span className="course-badges">
                    <StatusBadge status={course.status} />
                    <NotSent state={course.localState} />
                  </span>
                </span>
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
});
