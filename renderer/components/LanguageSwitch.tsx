// Deutsch / English: shown at once, kept by the core's settings (every window and every start),
// and in this browser as the language before the core answers.
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../i18n';
import { updateSettings, useErrors } from '../stores';

export function LanguageSwitch({
  id,
  testId,
  onSaved,
}: {
  id?: string;
  testId?: string;
  /** Told when the core has kept the choice (or refused it: the error is shown as any other). */
  onSaved?(ok: boolean): void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t('language.label')}</span>
      <select
        id={id}
        data-testid={testId}
        value={i18n.language === 'en' ? 'en' : 'de'}
        onChange={(event) => {
          void updateSettings({ language: event.target.value as Language }).then((result) => {
            if (!result.ok) useErrors.getState().push(result.error);
            onSaved?.(result.ok);
          });
        }}
        aria-label={t('language.label')}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {t(`language.${language}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
