// The settings' card for the private calendar feed (issue 13): its address entered in a
// password-like field (the secret path is never shown back: the core answers "https://host/…"),
// saved (checked by the core, fetched at once when online) or removed after a confirmation; where
// the feed stands (events on this computer, last fetch, the last fetch's problem in words), read
// again whenever the replica changes (a sync fetched it); its events exported as a calendar (no
// other screen shows them).
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CALL_READS, type FeedState } from '../contract';
import { errorText } from '../errors';
import { absoluteTime, relativeTime, useNow } from '../format';
import { asCoreError, useApp, useTablesVersion } from '../stores';
import { ConfirmDialog } from './ConfirmDialog';
import { ExportButton } from './ExportButton';
import { Field } from './Field';
import './export.css';

export function FeedSettings() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const bridge = useApp((store) => store.bridge);
  const dataVersion = useTablesVersion(CALL_READS['feed.get']);
  const now = useNow();
  const [feed, setFeed] = useState<FeedState | null>(null);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState<'save' | 'remove' | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);

  useEffect(() => {
    if (!bridge) return;
    let live = true;
    bridge.call('feed.get', {}).then(
      (state) => {
        if (live) setFeed(state);
      },
      () => {
        // Not connected: the banner says so; read again with the next change.
      },
    );
    return () => {
      live = false;
    };
  }, [bridge, dataVersion]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!bridge || busy) return;
    const address = url.trim();
    if (!address) {
      setFieldError(t('feed.required'));
      return;
    }
    setBusy('save');
    setFieldError(null);
    setStatus(null);
    try {
      const next = await bridge.call('feed.set', { url: address });
      setFeed(next);
      // The secret leaves the page once the core has it.
      setUrl('');
      setStatus(
        next.problem
          ? null
          : next.lastFetchedAt
            ? t('feed.saved', { count: next.events })
            : t('feed.savedNotFetched'),
      );
    } catch (error) {
      setFieldError(errorText(asCoreError(error), language));
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    if (!bridge) return;
    setBusy('remove');
    setRemoveError(null);
    try {
      setFeed(await bridge.call('feed.set', { url: null }));
      setConfirming(false);
      setStatus(t('feed.removed'));
    } catch (error) {
      setRemoveError(errorText(asCoreError(error), language));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="settings-card" aria-labelledby="settings-feed" data-testid="feed-settings">
      <h2 id="settings-feed">{t('feed.title')}</h2>
      <p className="hint settings-hint">{t('feed.intro')}</p>

      {feed === null ? (
        <p className="muted">{t('feed.loading')}</p>
      ) : feed.configured ? (
        <div className="feed-facts" data-testid="feed-state">
          <dl className="facts">
            <dt>{t('feed.current')}</dt>
            <dd className="mono" data-testid="feed-address">
              {feed.address}
            </dd>
          </dl>
          <p>
            {t('feed.events', { count: feed.events })}
            {' · '}
            {feed.lastFetchedAt ? (
              <span title={absoluteTime(feed.lastFetchedAt, language)}>
                {t('feed.lastFetched', {
                  when: relativeTime(feed.lastFetchedAt, now, language, { past: true }),
                })}
              </span>
            ) : (
              t('feed.neverFetched')
            )}
          </p>
          {feed.problem ? (
            <p className="field-error" data-testid="feed-problem">
              {t('feed.problem')}: {language === 'en' ? feed.problem.en : feed.problem.de}
            </p>
          ) : null}
          {feed.events > 0 ? (
            <ExportButton
              label={t('feed.exportEvents')}
              request={{ format: 'ics', what: 'events' }}
              data-testid="feed-export"
            />
          ) : null}
        </div>
      ) : (
        <p className="muted" data-testid="feed-state">
          {t('feed.none')}
        </p>
      )}

      <form className="feed-form" onSubmit={(event) => void save(event)} noValidate>
        <Field
          label={t('feed.address')}
          hint={
            feed?.configured
              ? `${t('feed.addressHint')} ${t('feed.replaceHint')}`
              : t('feed.addressHint')
          }
          error={fieldError}
          data-testid="feed-field"
        >
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="off"
              spellCheck={false}
              inputMode="url"
              placeholder="https://…/ical/v1/veranstaltungen/private-…/termine.ics"
              value={url}
              data-testid="feed-url"
              onChange={(event) => {
                setUrl(event.target.value);
                if (fieldError) setFieldError(null);
              }}
            />
          )}
        </Field>
        <div className="actions">
          <button
            type="submit"
            aria-busy={busy === 'save' || undefined}
            disabled={!bridge}
            data-testid="feed-save"
          >
            {busy === 'save' ? t('feed.saving') : t('feed.save')}
          </button>
          {feed?.configured ? (
            <button
              type="button"
              className="secondary"
              disabled={!bridge || busy !== null}
              data-testid="feed-remove"
              onClick={() => {
                setRemoveError(null);
                setConfirming(true);
              }}
            >
              {t('feed.remove')}
            </button>
          ) : null}
        </div>
        <p className="settings-saved feed-status" role="status" data-testid="feed-status">
          {status ?? ''}
        </p>
      </form>

      <ConfirmDialog
        open={confirming}
        title={t('feed.removeTitle')}
        text={t('feed.removeText')}
        confirmLabel={t('feed.remove')}
        destructive
        busy={busy === 'remove'}
        error={removeError}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
        data-testid="feed-remove-dialog"
      />
    </section>
  );
}
