import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '../i18n';

/** Deutsch / English, kept for the next start. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t('language.label')}</span>
      <select
        value={i18n.language === 'en' ? 'en' : 'de'}
        onChange={(event) => setLanguage(event.target.value as Language)}
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
