// Mitteilungen (Alt+3): the service's notifications from the replica, newest first, unread ones
// marked, offline as online. Read and unread are toggled with a button, Enter or R; Delete
// deletes, and while the deletion waits to be sent it can be undone (its operation discarded
// from the outbox, which restores the notification). Only https links are offered, opened in a
// new window (the system browser in the desktop app).
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { QueryResults } from '../../contract';
import { sendCommand, useQuery } from '../../data';
import { errorText } from '../../errors';
import { formatDate, formatTime } from '../../format';
import { useRovingRows } from '../../list-keys';
import { useNotificationsUi } from './state';
import './notifications.css';

const ROW_HEIGHT = 118;
const ROW = '[data-testid="notification-row"]';

type NotificationItem = QueryResults['notifications.list'][number];

/** A deletion that may still be taken back: its outbox operation, while it waits. */
interface Deleted {
  titel: string;
  operation: number | null;
}

export function NotificationsWorkspace() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const unreadOnly = useNotificationsUi((state) => state.unreadOnly);
  const setUnreadOnly = useNotificationsUi((state) => state.setUnreadOnly);
  const list = useQuery('notifications.list', { unreadOnly });
  const counts = useQuery('notifications.count', {});
  const items = list.data ?? [];
  const [deleted, setDeleted] = useState<Deleted | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const busy = useRef(false);
  const { scroller, virtualizer, index, setActive, moveKey } = useRovingRows({
    count: items.length,
    rowHeight: ROW_HEIGHT,
    overscan: 8,
  });

  const rows = virtualizer.getVirtualItems();
  // The list focused before its notifications were read (Alt+3 at once): on to the chosen one.
  useEffect(() => {
    const list = scroller.current;
    if (list && document.activeElement === list)
      list.querySelector<HTMLElement>(`${ROW}[tabindex="0"]`)?.focus();
  }, [rows.length, scroller]);

  const titleOf = (item: NotificationItem) => item.titel?.trim() || t('notifications.untitled');

  const toggleRead = async (item: NotificationItem) => {
    const result = await sendCommand('benachrichtigung.update', {
      id: item.id,
      attributes: { gelesen: !item.gelesen },
    });
    setDeleted(null);
    setMessage(
      result.ok
        ? {
            text: t(item.gelesen ? 'notifications.markedUnread' : 'notifications.markedRead', {
              titel: titleOf(item),
            }),
            error: false,
          }
        : { text: errorText(result.error, language), error: true },
    );
  };

  const remove = async (item: NotificationItem) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const result = await sendCommand('benachrichtigung.delete', { id: item.id });
      if (!result.ok) {
        setMessage({ text: errorText(result.error, language), error: true });
        return;
      }
      setMessage(null);
      setDeleted({ titel: titleOf(item), operation: result.value.operation });
    } finally {
      busy.current = false;
    }
  };

  const undo = async () => {
    if (!deleted) return;
    const operation = deleted.operation;
    setDeleted(null);
    const result =
      operation === null ? null : await sendCommand('outbox.discard', { id: operation });
    setMessage(
      result?.ok
        ? { text: t('notifications.restored', { titel: deleted.titel }), error: false }
        : { text: t('notifications.undoTooLate'), error: true },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (moveKey(event, ROW)) return;
    if (!(event.target as HTMLElement).matches(ROW)) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = items[index];
    if (!current) return;
    if (event.key === 'Enter' || event.key === 'r' || event.key === 'R') void toggleRead(current);
    else if (event.key === 'Delete') void remove(current);
    else return;
    event.preventDefault();
  };

  // Derived from what is shown: "Nur ungelesene" shows exactly the unread ones.
  const unreadCount = items.filter((item) => !item.gelesen).length;
  // The service's own count (meta.size), said only where it differs from what is here: a deletion
  // not yet sent, or notifications the service counts but did not list.
  const serviceCount = counts.data?.service ?? null;
  const shownCount = counts.data?.shown ?? null;
  return (
    <section className="notifications" aria-labelledby="notifications-title">
      <div className="notifications-head">
        <h1 id="notifications-title">{t('notifications.title')}</h1>
        <span className="muted" data-testid="notifications-unread">
          {t('notifications.unreadCount', { count: unreadCount })}
        </span>
        {serviceCount !== null && shownCount !== null && serviceCount !== shownCount ? (
          <span className="muted" data-testid="notifications-service-count">
            {t('notifications.serviceCount', { count: serviceCount, shown: shownCount })}
          </span>
        ) : null}
        <label className="notifications-filter">
          <input
            type="checkbox"
            checked={unreadOnly}
            data-testid="notifications-unread-only"
            onChange={(event) => setUnreadOnly(event.target.checked)}
          />
          {t('notifications.unreadOnly')}
        </label>
      </div>
      <div className="notifications-status" role="status">
        {deleted ? (
          <p className="notice" data-testid="notification-deleted">
            {t('notifications.deleted', { titel: deleted.titel })}{' '}
            {deleted.operation !== null ? (
              <button
                type="button"
                className="secondary"
                data-testid="notification-undo"
                onClick={() => void undo()}
              >
                {t('notifications.undo')}
              </button>
            ) : null}
          </p>
        ) : message ? (
          <p className={message.error ? 'form-error' : 'notice'}>{message.text}</p>
        ) : null}
      </div>
      {list.error ? (
        <p className="form-error" role="alert">
          {errorText(list.error, language)}
        </p>
      ) : list.data && items.length === 0 ? (
        <p className="muted" data-testid="notifications-empty">
          {t(unreadOnly ? 'notifications.noneUnread' : 'notifications.none')}
        </p>
      ) : (
        <div
          className="notifications-list"
          ref={scroller}
          onKeyDown={onKeyDown}
          data-testid="notifications-list"
          data-workspace-start
          tabIndex={-1}
          // Alt+3 lands here: the focus goes on to the chosen notification, where the keys work.
          onFocus={(event) => {
            if (event.target === event.currentTarget)
              event.currentTarget.querySelector<HTMLElement>(`${ROW}[tabindex="0"]`)?.focus();
          }}
        >
          <div
            role="list"
            aria-label={t('notifications.listLabel', { count: items.length })}
            aria-describedby="notifications-keys"
            style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
          >
            {rows.map((virtual) => {
              const item = items[virtual.index]!;
              const selected = virtual.index === index;
              const titel = titleOf(item);
              return (
                <div
                  key={virtual.key}
                  role="listitem"
                  className="notification-frame"
                  style={{ transform: `translateY(${virtual.start}px)`, height: ROW_HEIGHT }}
                >
                  <div
                    className="notification-row"
                    tabIndex={selected ? 0 : -1}
                    data-row-index={virtual.index}
                    data-selected={selected}
                    data-testid="notification-row"
                    data-notification-id={item.id}
                    data-read={item.gelesen}
                    data-local-state={item.localState ?? ''}
                    aria-keyshortcuts="Enter R Delete"
                    onFocus={() => setActive(virtual.index)}
                    onClick={() => setActive(virtual.index)}
                  >
                    <span className="notification-main">
                      <span className="notification-title">
                        {item.gelesen ? null : <span className="unread-dot" aria-hidden="true" />}
                        <span className="visually-hidden">
                          {item.gelesen ? t('notifications.read') : t('notifications.unread')}:{' '}
                        </span>
                        {titel}
                      </span>
                      <span className="notification-meta muted">
                        {[
                          item.kategorie
                            ? t(`notifications.kategorie.${item.kategorie}`, {
                                defaultValue: item.kategorie,
                              })
                            : null,
                          item.erstelltAm
                            ? `${formatDate(item.erstelltAm, language)} ${formatTime(item.erstelltAm, language)}`
                            : null,
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                        {item.localState ? (
                          <span
                            className="badge badge-not-sent"
                            data-testid="not-sent"
                            title={t('notifications.notSent')}
                          >
                            {t('courses.notSent.label')}
                          </span>
                        ) : null}
                      </span>
                      {item.text ? <span className="notification-text">{item.text}</span> : null}
                    </span>
                    <span className="notification-actions">
                      {item.link ? (
                        <a
                          href={item.link}
                          target="_blank"
                          rel="noreferrer noopener"
                          tabIndex={selected ? 0 : -1}
                        >
                          {t('notifications.open')}
                        </a>
                      ) : null}
                      <button
                        type="button"
                        className="secondary"
                        data-testid="notification-toggle"
                        tabIndex={selected ? 0 : -1}
                        aria-label={`${t(item.gelesen ? 'notifications.markUnread' : 'notifications.markRead')}: ${titel}`}
                        onClick={() => void toggleRead(item)}
                      >
                        {t(item.gelesen ? 'notifications.markUnread' : 'notifications.markRead')}
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        data-testid="notification-delete"
                        tabIndex={selected ? 0 : -1}
                        aria-label={`${t('notifications.delete')}: ${titel}`}
                        onClick={() => void remove(item)}
                      >
                        {t('notifications.delete')}
                      </button>
                    </span>
                  </div>
                </div>
              );
            })}
          </div>
        </div>
      )}
      <p className="hint" id="notifications-keys">
        {t('notifications.keys')}
      </p>
    </section>
  );
}
