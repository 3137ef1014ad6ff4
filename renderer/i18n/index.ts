// German first, English switchable; every string of the renderer is in de.json and en.json.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import de from './de.json';
import en from './en.json';

export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'vorort.language';

function storedLanguage(): Language {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    if (value === 'de' || value === 'en') return value;
  } catch {
    // storage refused (a private window): German
  }
  return 'de';
}

export function setLanguage(language: Language): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // not kept: this page only
  }
  void i18next.changeLanguage(language);
}

/** The language now in use: which half of a CoreError's message to show. */
export function currentLanguage(): Language {
  return i18next.language === 'en' ? 'en' : 'de';
}

export function initI18n(): typeof i18next {
  void i18next.use(initReactI18next).init({
    resources: { de: { translation: de }, en: { translation: en } },
    lng: storedLanguage(),
    fallbackLng: 'de',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  const sync = () => {
    document.documentElement.lang = currentLanguage();
  };
  sync();
  i18next.on('languageChanged', sync);
  return i18next;
}
