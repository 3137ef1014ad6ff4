// Signed out (by choice, or because the service refused the tokens): the reason, what is still
// on this computer (changes not yet sent; or that the data was deleted), "sign in again" (in the
// demo: either role), or another account. Signing in: the service's sign-in page to open or
// copy where no browser opened, and a cancel that ends the login.
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLinkableAddress, type AppState } from '../contract';
import { DemoSteps } from '../components/DemoSteps';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { cancelSignIn, signInWith, useSignOut } from '../sign-in';
import { reportError, useApp } from '../stores';
import { AccountForm, DemoButton } from './FirstRun';
import './sign-in.css';

type DemoRole = 'office' | 'trainer';

/** What sign-out left behind: changes not yet sent and refused ones (null until read). */
function usePendingLoss(state: AppState): { pending: number; parked: number } | null {
  const bridge = useApp((store) => store.bridge);
  const [loss, setLoss] = useState<{ pending: number; parked: number } | null>(null);
  useEffect(() => {
    if (!bridge) return;
    let current = true;
    bridge.call('account.pendingLoss', {}).then(
      (value) => {
        if (current) setLoss(value);
      },
      () => {
        // Not said then: the page claims nothing about them.
      },
    );
    return () => {
      current = false;
    };
  }, [bridge, state]);
  return loss;
}

export function SignedOut({ state }: { state: AppState }) {
  const { t, i18n } = useTranslation();
  const bridge = useApp((store) => store.bridge);
  const busy = useApp((store) => store.busy);
  const deleted = useSignOut((store) => store.deletedLocalData);
  const loss = usePendingLoss(state);
  const [other, setOther] = useState(false);
  const language = i18n.language;
  const account = state.account;
  const reason = state.reason ? (language === 'en' ? state.reason.en : state.reason.de) : null;
  const lastRole: DemoRole = state.demoRole ?? 'office';
  const otherRole: DemoRole = lastRole === 'office' ? 'trainer' : 'office';

  const signIn = async () => {
    if (!bridge || busy) return;
    useApp.setState({ busy: 'login' });
    try {
      const signedIn = await signInWith(() => bridge.call('account.login', {}));
      if (signedIn) useApp.getState().setState(signedIn);
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
        <div data-testid="signed-out-text">
          <p>{t('signedOut.text')}</p>
          {deleted && loss?.pending === 0 && loss.parked === 0 ? (
            <p>{t('signedOut.deleted')}</p>
          ) : null}
          {loss && loss.pending > 0 ? (
            <p>
              {t('signedOut.pending', { count: loss.pending })}
              {account?.demo ? ` ${t('signedOut.pendingDemo')}` : ''}
            </p>
          ) : null}
          {loss && loss.parked > 0 ? <p>{t('signedOut.parked', { count: loss.parked })}</p> : null}
        </div>
        {account ? (
          <p className="muted">
            {account.demo
              ? t('signedOut.demoAccount', { role: t(`signedOut.roles.${lastRole}`) })
              : t('signedOut.account', { url: account.baseUrl })}
          </p>
        ) : null}
        <div className="actions">
          {account?.demo ? (
            <>
              <DemoButton
                role={lastRole}
                secondary={false}
                label={t('signedOut.demoAgain', { role: t(`signedOut.roles.${lastRole}`) })}
              />
              <DemoButton
                role={otherRole}
                secondary
                label={t('signedOut.demoAs', { role: t(`signedOut.roles.${otherRole}`) })}
              />
            </>
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

/**
 * The sign-in page's address, for when no browser window opened: a link (https, or http on this
 * computer only), and the address itself to copy into another browser.
 */
function SignInAddress({ address }: { address: string }) {
  const { t } = useTranslation();
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<'copied' | 'select' | null>(null);
  const linkable = isLinkableAddress(address);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      setCopied('copied');
    } catch {
      // No clipboard for this page (a browser that refuses it): marked, for Ctrl+C.
      field.current?.focus();
      field.current?.select();
      setCopied('select');
    }
  };

  return (
    <section className="card sign-in-address" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('signingIn.noBrowserTitle')}</h2>
      <p>{t('signingIn.noBrowserText')}</p>
      {linkable ? (
        <p>
          <a
            className="button-link"
            href={address}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="sign-in-link"
          >
            {t('signingIn.open')}
          </a>
        </p>
      ) : (
        <p className="warning" data-testid="sign-in-not-linkable">
          {t('signingIn.notLinkable')}
        </p>
      )}
      <label htmlFor={`${id}-address`}>{t('signingIn.address')}</label>
      <textarea
        id={`${id}-address`}
        ref={field}
        className="mono sign-in-address-text"
        readOnly
        rows={4}
        value={address}
        spellCheck={false}
        onFocus={(event) => event.currentTarget.select()}
        data-testid="sign-in-address"
      />
      <div className="actions">
        <button type="button" className="secondary" onClick={() => void copy()}>
          {t('signingIn.copy')}
        </button>
        <span role="status" className="muted">
          {copied === 'copied'
            ? t('signingIn.copied')
            : copied === 'select'
              ? t('signingIn.copySelect')
              : ''}
        </span>
      </div>
    </section>
  );
}

export function SigningIn({ state }: { state: AppState }) {
  const { t } = useTranslation();
  const [cancelling, setCancelling] = useState(false);
  const demo = state.account?.demo ?? false;
  const address = state.signIn?.address ?? null;
  const cancel = () => {
    if (cancelling) return;
    setCancelling(true);
    void cancelSignIn().finally(() => setCancelling(false));
  };
  return (
    <div className="page signing-in">
      <header className="page-header">
        <span className="brand">{t('app.name')}</span>
        <LanguageSwitch />
      </header>
      <main id="main" className="welcome" tabIndex={-1}>
        <h1>{demo || state.demoStart ? t('signingIn.demoTitle') : t('signingIn.title')}</h1>
        <div className="signing-in-status" aria-busy="true">
          <div className="spinner" aria-hidden="true" />
          {state.demoStart ? (
            <DemoSteps start={state.demoStart} />
          ) : (
            <p role="status">{demo ? t('signingIn.demo') : t('signingIn.text')}</p>
          )}
        </div>
        <div className="actions">
          <button
            type="button"
            className="secondary"
            onClick={cancel}
            disabled={cancelling}
            data-testid="sign-in-cancel"
          >
            {t('signingIn.cancel')}
          </button>
        </div>
        {!demo && address ? <SignInAddress address={address} /> : null}
      </main>
    </div>
  );
}
