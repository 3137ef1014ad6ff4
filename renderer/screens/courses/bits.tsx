// Small pieces the courses screens share: the course's status and the "not sent" badge.
import { useTranslation } from 'react-i18next';
import type { LocalState } from '../../contract';

const COURSE_STATUSES = ['draft', 'ready', 'cancelled', 'completed'];

/** A course's status in words (draft, ready, cancelled, completed), coloured by meaning. */
export function StatusBadge({ status }: { status: string | null }) {
  const { t } = useTranslation();
  if (!status) return null;
  const known = COURSE_STATUSES.includes(status);
  return (
    <span className={`badge status-${known ? status : 'other'}`} data-status={status}>
      {known ? t(`courses.status.${status}`) : status}
    </span>
  );
}

/** A change made here that the service has not yet accepted (the outbox sends it). */
export function NotSent({ state }: { state: LocalState }) {
  const { t } = useTranslation();
  if (!state) return null;
  return (
    <span
      className="badge badge-not-sent"
      data-testid="not-sent"
      data-local-state={state}
      title={t(`courses.notSent.${state}`)}
    >
      {t('courses.notSent.label')}
    </span>
  );
}
