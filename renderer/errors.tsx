// Readable errors: a CoreError's words in the language in use, and the list the shell shows.
import { useTranslation } from 'react-i18next';
import type { CoreError } from './contract';
import { useErrors } from './stores';

export function errorText(error: CoreError, language: string): string {
  return language === 'en' ? error.message.en : error.message.de;
}

/** The errors of calls that failed, each dismissable; announced to screen readers. */
export function ErrorList() {
  const { t, i18n } = useTranslation();
  const errors = useErrors((store) => store.errors);
  const dismiss = useErrors((store) => store.dismiss);
  return (
    <div className="error-list" role="alert" aria-live="assertive">
      {errors.map((shown) => (
        <div className="error-item" key={shown.id} data-code={shown.error.code}>
          <p>
            <strong>{t('errors.title')}:</strong> {errorText(shown.error, i18n.language)}
          </p>
          <button type="button" className="quiet" onClick={() => dismiss(shown.id)}>
            {t('errors.dismiss')}
          </button>
        </div>
      ))}
    </div>
  );
}
