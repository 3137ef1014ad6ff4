import { useTranslation } from 'react-i18next';
import { useNow } from '../format';
import { useApp } from '../stores';

/** Says so when the page has lost the core (browser mode: the WebSocket), and when it retries. */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const connection = useApp((store) => store.connection);
  const now = useNow(1000);
  if (connection.phase === 'open') return null;
  let text: string;
  if (connection.phase === 'connecting') text = t('connection.connecting');
  else {
    text = t('connection.reconnecting', {
      seconds: Math.max(0, Math.ceil((connection.retryAt - now) / 1000)),
      attempt: connection.attempt,
    });
    // Browser mode: a restarted app has a new address (a new token); this page's is old then.
    if (connection.attempt >= 3 && !window.vorort) text += ` ${t('connection.restartedHint')}`;
  }
  return (
    <div className="connection-banner" role="status" data-connection={connection.phase}>
      {text}
    </div>
  );
}
