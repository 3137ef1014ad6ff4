// A client as search everything opens it: its name and place, how many of its participants the
// replica knows, and its courses (as the service's /clients/{id}/courses means them, as far as
// the replica holds them), each a button that opens the course in the courses workspace. The
// courses' list (ClientCourses) is the clients workspace's too.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { useQuery } from '../../data';
import { errorText } from '../../errors';
import type { QueryResults } from '../../contract';
import { formatDate } from '../../format';
import { NotSent } from './bits';
import './courses.css';

export function ClientDialog(props: {
  clientId: string | null;
  onClose(): void;
  onOpenCourse(courseId: string): void;
}) {
  const titleId = `client${useId()}`;
  return (
    <Dialog
      open={props.clientId !== null}
      onClose={props.onClose}
      labelledBy={titleId}
      className="client-dialog"
    >
      {props.clientId ? (
        <ClientBody {...props} clientId={props.clientId} titleId={titleId} />
      ) : null}
    </Dialog>
  );
}

function ClientBody({
  clientId,
  titleId,
  onClose,
  onOpenCourse,
}: {
  clientId: string;
  titleId: string;
  onClose(): void;
  onOpenCourse(courseId: string): void;
}) {
  const { t, i18n } = useTranslation();
  const client = useQuery('clients.get', { id: clientId });
  return (
    <div data-testid="client-dialog">
      <h2 id={titleId}>{client.data?.name?.trim() || t('courses.client.unnamed')}</h2>
      {client.error ? (
        <p className="form-error" role="alert">
          {errorText(client.error, i18n.language)}
        </p>
      ) : client.data === null ? (
        <p role="status">{t('courses.client.unknown')}</p>
      ) : client.data ? (
        <>
          <p className="muted">
            {[
              client.data.city,
              t('courses.client.participants', { count: client.data.participants }),
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          <h3>{t('courses.client.courses')}</h3>
          <ClientCourses courses={client.data.courses} onOpenCourse={onOpenCourse} focusFirst />
        </>
      ) : (
        <p role="status">{t('courses.client.loading')}</p>
      )}
      <div className="actions">
        <button type="button" className="secondary" onClick={onClose}>
          {t('courses.client.close')}
        </button>
      </div>
    </div>
  );
}

type ClientCourse = NonNullable<QueryResults['clients.get']>['courses'][number];

/**
 * A client's courses (as the service's /clients/{id}/courses means them, as far as the replica
 * holds them): number and title, then days, course type and place; each a button that opens the
 * course. The dialog and the clients workspace show them alike.
 */
export function ClientCourses({
  courses,
  onOpenCourse,
  focusFirst = false,
}: {
  courses: ClientCourse[];
  onOpenCourse(courseId: string): void;
  /** The first takes the focus once the courses came (the dialog: Enter opens it). */
  focusFirst?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const day = (value: string | null) => (value ? formatDate(value, i18n.language) : '');
  if (courses.length === 0) return <p className="muted">{t('courses.client.noCourses')}</p>;
  return (
    <ul className="client-courses">
      {courses.map((course, index) => (
        <li key={course.id}>
          <button
            type="button"
            autoFocus={focusFirst && index === 0}
            className="client-course"
            data-testid="client-course"
            data-course-id={course.id}
            onClick={() => onOpenCourse(course.id)}
          >
            <span className="client-course-title">
              {[course.courseNumber, course.title?.trim() || t('courses.untitled')]
                .filter(Boolean)
                .join(' ')}
              {course.localState ? (
                <>
                  {' '}
                  <NotSent state={course.localState} />
                </>
              ) : null}
            </span>
            <span className="muted">
              {[
                [day(course.firstDate), day(course.lastDate)]
                  .filter((value, index, all) => value && all.indexOf(value) === index)
                  .join(' – '),
                course.dates > 1 ? t('courses.office.days', { count: course.dates }) : null,
                course.courseType,
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
            {(course.address ?? course.city) ? (
              <span className="muted client-course-place">{course.address ?? course.city}</span>
            ) : null}
          </button>
        </li>
      ))}
    </ul>
  );
}
