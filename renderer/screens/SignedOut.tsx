// Signed out (by choice, or because the service refused the tokens): the reason, "sign in again"
// (or the demo again), or another account.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppState } from '../contract';
import { DemoSteps } from '../components/DemoSteps';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { reportError, useApp } from '../stores';
import { AccountForm, DemoButton } from './FirstRun';

export function SignedOut({ state }: { state: AppState }) {
  const { t, i18n } = useTranslation();
  const bridge = useApp((store) => store.bridge);
  const busy = useApp((store) => store.busy);
  const [other, setOther] = useState(false);
  const language = i18n.language;
  const account = state.account;
  const reason = state.reason ? (language === 'en' ? state.reason.en : state.reason.de) : null;

  const signIn = async () => {
    if (!bridge || busy) return;
    useApp.setState({ busy: 'login' });
    try {
      useApp.getState().setState(await bridge.call('account.login', {}));
    } catch (caught) {
      // In the error list: the screen changes while signing in and comes back.
      reportError(caught);
    } finally {
      useApp.setState({ busy: null });
    }
  };

  return (
    <div className="page signed-out">
      <header className="page-header">
        <span className="brand">{t('app.name')}</span>
        <LanguageSwitch />
      </header>
      <main id="main" className="welcome" tabIndex={-1}>
        <h1>{t('signedOut.title')}</h1>
        {reason ? (
          <p className="reason" role="alert" data-testid="signed-out-reason">
            {t('signedOut.reason', { reason })}
          </p>
        ) : null}
        <p>{t('signedOut.text')}</p>
        {account ? (
          <p className="muted">
            {account.demo
              ? t('signedOut.demoAccount')
              : t('signedOut.account', { url: account.baseUrl })}
          </p>
        ) : null}
        <div className="actions">
          {account?.demo ? (
            <DemoButton label={t('signedOut.demoAgain')} />
          ) : (
            <button type="button" onClick={signIn} disabled={busy !== null}>
              {busy === 'login' ? t('firstRun.signingIn') : t('signedOut.signInAgain')}
            </button>
          )}
          <button
            type="button"
            className="secondary"
            aria-expanded={other}
            onClick={() => setOther(!other)}
          >
            {t('signedOut.otherAccount')}
          </button>
        </div>
        {other ? (
          <section className="card" aria-label={t('signedOut.otherAccount')}>
            <AccountForm initial={account && !account.demo ? { ...account } : undefined} />
          </section>
        ) : null}
      </main>
    </div>
  );
}

export function SigningIn({ state }: { state: AppState }) {
  const { t } = useTranslation();
  return (
    <div className="page signing-in">
      <header className="page-header">
        <span className="brand">{t('app.name')}</span>
        <LanguageSwitch />
      </header>
      <main id="main" className="welcome" tabIndex={-1} aria-busy="true">
        <h1>
          {state.account?.demo || state.demoStart ? t('signingIn.demoTitle') : t('signingIn.title')}
        </h1>
        {state.demoStart ? (
          <DemoSteps start={state.demoStart} />
        ) : (
          <p role="status">{state.account?.demo ? t('signingIn.demo') : t('signingIn.text')}</p>
        )}
        <div className="spinner" aria-hidden="true" />
      </main>
    </div>
  );
}
