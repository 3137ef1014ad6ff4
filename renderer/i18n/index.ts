// German first, English switchable; every string of the renderer is in de.json and en.json, and
// a workspace's own strings in <workspace>.de.json / .en.json beside them (under its key).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import calendarsDe from './calendars.de.json';
import calendarsEn from './calendars.en.json';
import clientsDe from './clients.de.json';
import clientsEn from './clients.en.json';
import coursesDe from './courses.de.json';
import coursesEn from './courses.en.json';
import de from './de.json';
import en from './en.json';
import hoursDe from './hours.de.json';
import hoursEn from './hours.en.json';
import hoursOfficeDe from './hoursOffice.de.json';
import hoursOfficeEn from './hoursOffice.en.json';
import notificationsDe from './notifications.de.json';
import notificationsEn from './notifications.en.json';
import personnelDe from './personnel.de.json';
import personnelEn from './personnel.en.json';
import referenceDe from './reference.de.json';
import referenceEn from './reference.en.json';
import syncCentreDe from './syncCentre.de.json';
import syncCentreEn from './syncCentre.en.json';

const german = {
  ...de,
  calendars: calendarsDe,
  clients: clientsDe,
  courses: coursesDe,
  hours: hoursDe,
  hoursOffice: hoursOfficeDe,
  notifications: notificationsDe,
  personnel: personnelDe,
  reference: referenceDe,
  syncCentre: syncCentreDe,
};
const english = {
  ...en,
  calendars: calendarsEn,
  clients: clientsEn,
  courses: coursesEn,
  hours: hoursEn,
  hoursOffice: hoursOfficeEn,
  notifications: notificationsEn,
  personnel: personnelEn,
  reference: referenceEn,
  syncCentre: syncCentreEn,
};

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
    resources: { de: { translation: german }, en: { translation: english } },
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
