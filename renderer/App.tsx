// The app by its phase: first run, signing in, signed out, signed in (the shell).
import { useTranslation } from 'react-i18next';
import { ConnectionBanner } from './components/ConnectionBanner';
import { ErrorList } from './errors';
import { FirstRun } from './screens/FirstRun';
import { Shell } from './screens/Shell';
import { SignedOut, SigningIn } from './screens/SignedOut';
import { useApp } from './stores';

function Screen() {
  const { t } = useTranslation();
  const state = useApp((store) => store.state);
  if (!state)
    return (
      <main id="main" className="loading" aria-busy="true">
        <p>{t('app.loading')}</p>
      </main>
    );
  switch (state.phase) {
    case 'first-run':
      return <FirstRun />;
    case 'signing-in':
      return <SigningIn state={state} />;
    case 'signed-out':
      return <SignedOut state={state} />;
    case 'signed-in':
      return <Shell state={state} />;
  }
}

export function App() {
  const phase = useApp((store) => store.state?.phase ?? 'loading');
  return (
    <div className="app" data-phase={phase}>
      <ConnectionBanner />
      <Screen />
      <ErrorList />
    </div>
  );
}

/** When the page cannot reach the core at all (browser mode without the token in its address). */
export function MissingToken() {
  const { t } = useTranslation();
  return (
    <main id="main" className="page welcome">
      <h1>{t('app.name')}</h1>
      <p role="alert">{t('connection.missingToken')}</p>
    </main>
  );
}
