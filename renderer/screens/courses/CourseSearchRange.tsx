// The course filter's text search and its two days, shared by the trainer's day plan and the
// office's course list: the search (/ or Ctrl+F; ↓ goes on into the list) and a from/until pair
// checked as typed (the list keeps the last real day meanwhile, a range the wrong way round is
// said beside "until"). What follows the range (today, the office's choices) stays the caller's.
import { useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateTimeFields';
import { datePattern, ISO_DAY } from '../../date-entry';

export interface CourseSearchRangeProps {
  /** The search field's id (each list has its own). */
  searchId: string;
  searchRef: RefObject<HTMLInputElement | null>;
  /** Focused on ↓ from the search. */
  list: RefObject<{ focus(): void } | null>;
  text: string;
  onText(text: string): void;
  from: string;
  until: string;
  /** A day chosen (an ISO day, or '' for none). */
  onDay(end: 'from' | 'until', day: string): void;
  /** After the two days, inside the range's row (the trainer's "Heute"). */
  children?: ReactNode;
}

export function CourseSearchRange(props: CourseSearchRangeProps) {
  const { t, i18n } = useTranslation();
  /** A date field whose text is no day. */
  const [typedWrong, setTypedWrong] = useState({ from: false, until: false });
  const rangeWrong = props.from !== '' && props.until !== '' && props.from > props.until;
  return (
    <>
      <div className="filter-search">
        <label htmlFor={props.searchId} className="visually-hidden">
          {t('courses.filter.search')}
        </label>
        <input
          id={props.searchId}
          ref={props.searchRef}
          type="search"
          value={props.text}
          placeholder={t('courses.filter.searchPlaceholder')}
          aria-keyshortcuts="/ Control+F"
          title={t('courses.filter.searchTitle')}
          data-testid="course-filter"
          autoComplete="off"
          onChange={(event) => props.onText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') {
              event.preventDefault();
              props.list.current?.focus();
            }
          }}
        />
      </div>
      <div className="filter-range">
        {(['from', 'until'] as const).map((end) => (
          <DateField
            key={end}
            label={t(`courses.filter.${end}`)}
            value={props[end]}
            readBack={false}
            className="filter-date"
            error={
              typedWrong[end]
                ? t('courses.filter.dateWrong', { pattern: datePattern(i18n.language) })
                : rangeWrong && end === 'until'
                  ? t('courses.filter.rangeWrong')
                  : null
            }
            data-testid={`course-filter-${end}`}
            onValueChange={(day) => {
              const real = day === '' || ISO_DAY.test(day);
              setTypedWrong((before) => ({ ...before, [end]: !real }));
              if (real) props.onDay(end, day);
            }}
          />
        ))}
        {props.children}
      </div>
    </>
  );
}
