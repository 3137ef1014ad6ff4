// Small pieces of the personnel screens: a person's status in words, coloured by meaning; what
// the login may change of people, and the note that says why a change is not offered; the
// service's dates and texts as the screens show them.
import { useTranslation } from 'react-i18next';
import { PERSON_STATUSES } from '../../contract';
import { useGranted } from '../../stores';

/** What the login may do to people: create (personal:add), change (personal:update). */
export function usePersonnelGrants() {
  return { add: useGranted('personal:add'), update: useGranted('personal:update') };
}

/** Says, in words, which changes this login cannot make and why; nothing when it may make all. */
export function ReadOnlyNote() {
  const { t } = useTranslation();
  const grants = usePersonnelGrants();
  if (grants.add && grants.update) return null;
  const missing = grants.update ? 'add' : grants.add ? 'update' : 'both';
  return (
    <p className="readonly-note" role="note" data-testid="personnel-readonly">
      {t(`personnel.readonly.${missing}`)}
    </p>
  );
}

/** aktiv, eingeschränkt, extern, gesperrt; an unknown status as the service says it. */
export function PersonStatusBadge({ status }: { status: string | null }) {
  const { t } = useTranslation();
  if (!status) return null;
  const known = (PERSON_STATUSES as readonly string[]).includes(status);
  return (
    <span className={`badge person-status-${known ? status : 'other'}`} data-status={status}>
      {known ? t(`personnel.status.${status}`) : status}
    </span>
  );
}

/** A date the service gave, or null for none ("", "0000-00-00", not a date). */
export function day(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const date = value.slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && !date.startsWith('0000') ? date : null;
}

/** A text or number the service gave, trimmed; null for none. */
export function textOf(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}
