// The demo only: its service taken offline and reconnected (demo.service), to try Vorort as at a
// venue without network: the sync indicator says offline, changes wait as "ausstehend", and
// reconnected they are sent by themselves.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppState } from '../contract';
import { reportError, useApp } from '../stores';
import './demo-service.css';

export function DemoServiceSwitch({ state }: { state: AppState }) {
  const { t } = useTranslation();
  const bridge = useApp((store) => store.bridge);
  const [running, setRunning] = useState(false);
  if (!state.account?.demo || !state.demoService) return null;
  const offline = state.demoService === 'offline';

  const toggle = () => {
    if (!bridge || running) return;
    setRunning(true);
    bridge
      .call('demo.service', { online: offline })
      .then((next) => useApp.getState().setState(next), reportError)
      .finally(() => setRunning(false));
  };

  return (
    <section
      className="demo-service"
      aria-labelledby="demo-service-title"
      data-testid="demo-service"
      data-offline={offline}
    >
      <h2 id="demo-service-title">{t('demoService.title')}</h2>
      <p role="status">{offline ? t('demoService.offline') : t('demoService.online')}</p>
      <button
        type="button"
        className={offline ? undefined : 'secondary'}
        onClick={toggle}
        disabled={running}
      >
        {offline ? t('demoService.reconnect') : t('demoService.takeOffline')}
      </button>
    </section>
  );
}
