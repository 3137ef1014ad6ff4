// The service's forms of an object (a course, a person; issue 23): each form's title, and its
// action opened only when it is an https address, in a new window (the desktop app hands it to
// the system browser; see electron/window-guard.ts). Any other action is shown as text, never as
// a link: a form's action is the service's data, and an address of another kind could run
// something or reach this computer.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormObjectType, QueryResults } from '../contract';
import { useQuery } from '../data';
import './forms.css';

type Form = QueryResults['forms.list'][number];

/** The form's https address to open, or null (no action, or one of another kind). */
export function formLink(aktion: unknown): string | null {
  const url =
    aktion && typeof aktion === 'object' ? (aktion as Record<string, unknown>).url : undefined;
  if (typeof url !== 'string' || !/^https:\/\//i.test(url.trim())) return null;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'https:' && parsed.host ? parsed.href : null;
  } catch {
    return null;
  }
}

/** A form's action as words, when it is not offered as a link (null: none). */
export function formActionText(aktion: unknown): string | null {
  if (aktion === null || aktion === undefined) return null;
  if (typeof aktion === 'string') return aktion;
  if (typeof aktion === 'object') {
    const url = (aktion as Record<string, unknown>).url;
    if (typeof url === 'string') return url;
  }
  return JSON.stringify(aktion);
}

/** One form: its title, opened by its https action, or the action shown as text. */
export function FormItem({ form }: { form: Form }) {
  const { t } = useTranslation();
  const title = form.titel?.trim() || t('reference.forms.untitled');
  const link = formLink(form.aktion);
  const other = link ? null : formActionText(form.aktion);
  return (
    <li className="form-item" data-testid="form-item" data-link={link ? 'https' : 'none'}>
      {link ? (
        <a
          href={link}
          target="_blank"
          rel="noreferrer noopener"
          title={t('reference.forms.opensOutside')}
        >
          {title}
          <span className="visually-hidden"> ({t('reference.forms.opensOutside')})</span>
        </a>
      ) : (
        <span>{title}</span>
      )}
      {other ? (
        <span className="form-action-text muted">
          {' · '}
          {t('reference.forms.notOffered')}: <span className="mono">{other}</span>
        </span>
      ) : null}
    </li>
  );
}

/** The "Formulare" section of an object's view; nothing when the replica holds none for it. */
export function FormsSection({
  typ,
  id,
  headingLevel = 3,
  className,
  refreshed,
}: {
  typ: FormObjectType;
  id: string;
  headingLevel?: 2 | 3;
  className?: string;
  /** The view's on-demand refresh is done (it names no tables): read the forms again. */
  refreshed?: boolean;
}) {
  const { t } = useTranslation();
  const forms = useQuery('forms.list', { typ, id });
  const { reload } = forms;
  useEffect(() => {
    if (refreshed) reload();
  }, [refreshed, reload]);
  const items = forms.data ?? [];
  if (!items.length) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const headingId = `forms-${typ}-${id}`;
  return (
    <section
      className={['forms-section', className].filter(Boolean).join(' ')}
      aria-labelledby={headingId}
      data-testid="forms-section"
    >
      <Heading id={headingId}>{t('reference.forms.title')}</Heading>
      <ul className="forms-list">
        {items.map((form, index) => (
          <FormItem key={index} form={form} />
        ))}
      </ul>
    </section>
  );
}
