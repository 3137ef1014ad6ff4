// The renderer's entry: i18n, the bridge to the core (Electron's preload or browser mode's
// WebSocket), the stores, and the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod';
import { App, MissingToken } from './App';
import { createBridge } from './bridge';
import { initI18n } from './i18n';
import { connectStores, type NotifyHandler } from './stores';
import './styles.css';

// The CSP forbids eval: zod must not even try its compiled fast path (the try is a CSP report).
zodConfig({ jitless: true });

const i18n = initI18n();

/**
 * New notifications from the service after a sync. In Electron the main process shows them as OS
 * notifications; in browser mode the page does, through the Notifications API when permitted.
 */
const notify: NotifyHandler = (items) => {
  if (window.vorort || typeof Notification === 'undefined') return;
  if (Notification.permission !== 'granted') return;
  const title = i18n.t('notifications.newTitle', { count: items.length });
  new Notification(title, { body: items.map((item) => item.titel).join('\n'), tag: 'vorort' });
};

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
const root = createRoot(container);
const bridge = createBridge();
if ('missing' in bridge) {
  root.render(
    <StrictMode>
      <MissingToken />
    </StrictMode>,
  );
} else {
  connectStores(bridge, notify);
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
