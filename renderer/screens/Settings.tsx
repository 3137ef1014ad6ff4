// The settings: the account (as set up), the sync profile and the course window (from the next
// sync), the language and the theme (at once), the desktop app's updates where the organisation
// set an update server. Kept by the core (settings.update), so every
// window and every start has them; each change is saved as it is made, said quietly.
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppSettings, AppState, CoreError } from '../contract';
import { FeedSettings } from '../components/FeedSettings';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { errorText } from '../errors';
import {
  askUpdates,
  updateSettings,
  useSettings,
  useUpdates,
  type SettingsChange,
} from '../stores';
import './settings.css';

const PROFILES = ['trainer', 'office'] as const;
const THEMES = ['system', 'light', 'dark'] as const;
const MONTHS_BACK = [0, 1, 2, 3, 6, 9, 12, 18, 24];
const MONTHS_AHEAD = [1, 2, 3, 6, 9, 12, 18, 24, 36];

/** The choices of a month select: the usual ones, and the stored value when it is another. */
function monthChoices(usual: number[], value: number | undefined): number[] {
  return value === undefined || usual.includes(value)
    ? usual
    : [...usual, value].sort((a, b) => a - b);
}

type Saved = { key: keyof AppSettings; at: number } | null;

export function Settings({ state }: { state: AppState }) {
  const { t, i18n } = useTranslation();
  const settings = useSettings((store) => store.settings);
  const account = state.account;
  const [saved, setSaved] = useState<Saved>(null);
  const [failed, setFailed] = useState<{ key: keyof AppSettings; error: CoreError } | null>(null);

  const change = (key: keyof AppSettings, value: SettingsChange) => {
    setFailed(null);
    void updateSettings(value).then((result) => {
      if (result.ok) setSaved({ key, at: Date.now() });
      else {
        setSaved(null);
        setFailed({ key, error: result.error });
      }
    });
  };
  const errorOf = (key: keyof AppSettings) =>
    failed?.key === key ? errorText(failed.error, i18n.language) : null;
  const status = (key: keyof AppSettings) => (
    <SavedNote key={`${key}-${saved?.at ?? 0}`} show={saved?.key === key} error={errorOf(key)} />
  );

  return (
    <section className="settings" aria-labelledby="settings-title">
      <h1 id="settings-title">{t('settings.title')}</h1>

      <section className="settings-card" aria-labelledby="settings-account">
        <h2 id="settings-account">{t('settings.account')}</h2>
        {account ? (
          <dl className="facts">
            {state.user ? (
              <>
                <dt>{t('settings.user')}</dt>
                <dd>{state.user.name}</dd>
              </>
            ) : null}
            {account.demo ? (
              <>
                <dt>{t('settings.account')}</dt>
                <dd>{t('settings.demoAccount')}</dd>
              </>
            ) : null}
            <dt>{t('settings.baseUrl')}</dt>
            <dd className="mono">{account.baseUrl}</dd>
            <dt>{t('settings.authUrl')}</dt>
            <dd className="mono">{account.authUrl}</dd>
            <dt>{t('settings.tokenUrl')}</dt>
            <dd className="mono">{account.tokenUrl}</dd>
            <dt>{t('settings.clientId')}</dt>
            <dd className="mono">{account.clientId}</dd>
          </dl>
        ) : null}
        <p className="muted">{t('settings.accountChange')}</p>
      </section>

      <section className="settings-card" aria-labelledby="settings-sync">
        <h2 id="settings-sync">{t('settings.sync')}</h2>
        {settings ? null : <p className="muted">{t('settings.loading')}</p>}
        <RadioGroup
          legend={t('settings.profile')}
          name="profile"
          testId="settings-profile"
          value={settings?.profile}
          disabled={!settings}
          options={PROFILES.map((profile) => ({
            value: profile,
            label: t(`settings.profiles.${profile}`),
            hint: t(`settings.profiles.${profile}Hint`),
          }))}
          onChange={(profile) => change('profile', { profile })}
          status={status('profile')}
        />
        <fieldset className="settings-group">
          <legend>{t('settings.courseWindow')}</legend>
          <p className="hint settings-hint">{t('settings.courseWindowHint')}</p>
          <div className="settings-months">
            <MonthSelect
              label={t('settings.monthsBack')}
              testId="settings-months-back"
              value={settings?.courseMonthsBack}
              choices={monthChoices(MONTHS_BACK, settings?.courseMonthsBack)}
              disabled={!settings}
              onChange={(courseMonthsBack) => change('courseMonthsBack', { courseMonthsBack })}
            />
            <MonthSelect
              label={t('settings.monthsAhead')}
              testId="settings-months-ahead"
              value={settings?.courseMonthsAhead}
              choices={monthChoices(MONTHS_AHEAD, settings?.courseMonthsAhead)}
              disabled={!settings}
              onChange={(courseMonthsAhead) => change('courseMonthsAhead', { courseMonthsAhead })}
            />
          </div>
          {status('courseMonthsBack')}
          {status('courseMonthsAhead')}
        </fieldset>
        <p className="hint">{t('settings.nextSync')}</p>
      </section>

      <section className="settings-card" aria-labelledby="settings-look">
        <h2 id="settings-look">{t('settings.appearance')}</h2>
        <div className="settings-group">
          <label className="settings-label" htmlFor="settings-language">
            {t('language.label')}
          </label>
          <LanguageSwitch
            id="settings-language"
            testId="settings-language"
            onSaved={(ok) => (ok ? setSaved({ key: 'language', at: Date.now() }) : setSaved(null))}
          />
          {status('language')}
        </div>
        <RadioGroup
          legend={t('settings.theme')}
          name="theme"
          testId="settings-theme"
          value={settings?.theme ?? 'system'}
          inline
          options={THEMES.map((theme) => ({ value: theme, label: t(`settings.themes.${theme}`) }))}
          onChange={(theme) => change('theme', { theme })}
          status={status('theme')}
        />
      </section>

      <FeedSettings />

      <Updates />

      {window.vorort ? null : <BrowserNotifications />}
    </section>
  );
}

/** "Gespeichert", said once beside the control that changed, then faded; or the error. */
function SavedNote({ show, error }: { show: boolean; error: string | null }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(show);
  useEffect(() => {
    setVisible(show);
    if (!show) return;
    const timer = window.setTimeout(() => setVisible(false), 2500);
    return () => window.clearTimeout(timer);
  }, [show]);
  if (error)
    return (
      <p className="field-error" role="alert">
        {error}
      </p>
    );
  return (
    <span className="settings-saved" role="status" data-testid="settings-saved">
      {visible ? t('settings.saved') : ''}
    </span>
  );
}

function RadioGroup<V extends string>(props: {
  legend: string;
  name: string;
  testId: string;
  value: V | undefined;
  options: { value: V; label: string; hint?: string }[];
  disabled?: boolean;
  inline?: boolean;
  onChange(value: V): void;
  status: ReactNode;
}) {
  const id = useId();
  return (
    <fieldset className="settings-group" data-testid={props.testId}>
      <legend>{props.legend}</legend>
      <div className={props.inline ? 'settings-radios inline' : 'settings-radios'}>
        {props.options.map((option) => {
          const hintId = `${id}-${option.value}-hint`;
          return (
            <label key={option.value} className="settings-radio">
              <input
                type="radio"
                name={props.name}
                value={option.value}
                checked={props.value === option.value}
                disabled={props.disabled}
                aria-describedby={option.hint ? hintId : undefined}
                data-testid={`${props.testId}-${option.value}`}
                onChange={() => props.onChange(option.value)}
              />
              <span>
                <span className="settings-radio-label">{option.label}</span>
                {option.hint ? (
                  <span id={hintId} className="hint settings-radio-hint">
                    {option.hint}
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      {props.status}
    </fieldset>
  );
}

function MonthSelect(props: {
  label: string;
  testId: string;
  value: number | undefined;
  choices: number[];
  disabled: boolean;
  onChange(value: number): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="settings-month">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        data-testid={props.testId}
        value={props.value ?? ''}
        disabled={props.disabled}
        onChange={(event) => props.onChange(Number(event.target.value))}
      >
        {props.value === undefined ? <option value="" /> : null}
        {props.choices.map((months) => (
          <option key={months} value={months}>
            {t('settings.months', { count: months })}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Browser mode: the Notifications API, asked for only when the person chooses to. */
function BrowserNotifications() {
  const { t } = useTranslation();
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  return (
    <section className="settings-card" aria-labelledby="settings-notifications">
      <h2 id="settings-notifications">{t('settings.notifications')}</h2>
      <p>{t('settings.notificationsText')}</p>
      {!supported ? (
        <p className="muted">{t('settings.notificationsUnsupported')}</p>
      ) : permission === 'granted' ? (
        <p className="muted">{t('settings.notificationsGranted')}</p>
      ) : permission === 'denied' ? (
        <p className="muted">{t('settings.notificationsDenied')}</p>
      ) : (
        <button
          type="button"
          className="secondary"
          onClick={() => void Notification.requestPermission().then(setPermission)}
        >
          {t('settings.notificationsAllow')}
        </button>
      )}
    </section>
  );
}

/** The installed app's updates: where they stand, the download, the person's consent to restart. */
function Updates() {
  const { t, i18n } = useTranslation();
  const updates = useUpdates((store) => store.updates);
  useEffect(() => askUpdates('updates.state'), []);
  // Browser mode, or no update server set: nothing to say (unless the organisation's file is wrong).
  if (!updates || (updates.phase === 'off' && !updates.error)) return null;
  const version = updates.version ?? '';
  const when = updates.checkedAt
    ? new Date(updates.checkedAt).toLocaleString(i18n.language, {
        dateStyle: 'medium',
        timeStyle: 'short',
      })
    : null;
  const checkNow = (
    <button type="button" className="secondary" onClick={() => askUpdates('updates.check')}>
      {t('settings.updates.check')}
    </button>
  );
  let body: ReactNode;
  switch (updates.phase) {
    case 'off':
      body = <p className="muted">{t('settings.updates.off', { why: updates.error })}</p>;
      break;
    case 'idle':
      body = (
        <>
          <p>
            {when ? t('settings.updates.upToDate', { when }) : t('settings.updates.background')}
          </p>
          {checkNow}
        </>
      );
      break;
    case 'checking':
      body = <p>{t('settings.updates.checking')}</p>;
      break;
    case 'downloading':
      body = (
        <>
          <p>{t('settings.updates.downloading', { version, percent: updates.percent ?? 0 })}</p>
          <progress
            max={100}
            value={updates.percent ?? 0}
            aria-label={t('settings.updates.title')}
          />
        </>
      );
      break;
    case 'ready':
      body = updates.waitingForSync ? (
        <p>{t('settings.updates.waiting', { version })}</p>
      ) : (
        <>
          <p>{t('settings.updates.ready', { version })}</p>
          <button type="button" onClick={() => askUpdates('updates.install')}>
            {t('settings.updates.install')}
          </button>
        </>
      );
      break;
    case 'installing':
      body = <p>{t('settings.updates.installing', { version })}</p>;
      break;
    case 'failed':
      body = (
        <>
          <p className="muted">{t('settings.updates.failed', { why: updates.error ?? '' })}</p>
          {checkNow}
        </>
      );
      break;
  }
  return (
    <section className="settings-card" aria-labelledby="settings-updates" aria-live="polite">
      <h2 id="settings-updates">{t('settings.updates.title')}</h2>
      {body}
    </section>
  );
}
