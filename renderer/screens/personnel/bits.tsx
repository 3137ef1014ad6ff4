// Small pieces of the personnel screens: a person's status in words, coloured by meaning.
import { useTranslation } from 'react-i18next';
import { PERSON_STATUSES } from '../../contract';

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
