import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppState } from '../contract';
import { LanguageSwitch } from '../components/LanguageSwitch';

export function Settings({ state }: { state: AppState }) {
  const { t } = useTranslation();
  const account = state.account;
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">{t('settings.title')}</h1>
      <h2>{t('settings.account')}</h2>
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
      <h2>{t('language.label')}</h2>
      <LanguageSwitch />
      <h2>{t('settings.appearance')}</h2>
      <p>{t('settings.appearanceText')}</p>
      {window.vorort ? null : <BrowserNotifications />}
    </section>
  );
}

/** Browser mode: the Notifications API, asked for only when the person chooses to. */
function BrowserNotifications() {
  const { t } = useTranslation();
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  return (
    <>
      <h2>{t('settings.notifications')}</h2>
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
    </>
  );
}
