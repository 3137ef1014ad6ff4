// Search everything (Ctrl+K, Cmd+K on macOS): people, courses, participants, occasions and
// clients from the replica, offline, with the kind beside each hit; ↑↓ choose, Enter opens,
// Escape closes.
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../data';
import { formatDate } from '../format';
import { Dialog } from './Dialog';
import './search-palette.css';

export type SearchHit =
  | { kind: 'person'; id: string; label: string }
  | { kind: 'course'; id: string; label: string }
  | { kind: 'participant'; id: string; courseId: string; label: string }
  | { kind: 'occasion'; id: string; label: string; datum: string | null }
  | { kind: 'client'; id: string; label: string };

export function SearchPalette({
  open,
  onClose,
  onOpen,
}: {
  open: boolean;
  onClose(): void;
  onOpen(hit: SearchHit): void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      labelledBy="search-palette-title"
      className="search-palette"
    >
      {open ? <Palette onClose={onClose} onOpen={onOpen} /> : null}
    </Dialog>
  );
}

function Palette({ onClose, onOpen }: { onClose(): void; onOpen(hit: SearchHit): void }) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState('');
  const [typed, setTyped] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  // One query per burst of typing, not per key.
  useEffect(() => {
    const timer = window.setTimeout(() => setTyped(text.trim()), 60);
    return () => window.clearTimeout(timer);
  }, [text]);
  const found = useQuery('search', { text: typed || ' ', limit: 8 }, { enabled: typed !== '' });
  const hits = useMemo<SearchHit[]>(() => {
    if (!typed || !found.data) return [];
    return [
      ...found.data.people.map((p) => ({ kind: 'person' as const, ...p })),
      ...found.data.courses.map((c) => ({ kind: 'course' as const, ...c })),
      ...found.data.participants.map((p) => ({ kind: 'participant' as const, ...p })),
      ...found.data.occasions.map((o) => ({ kind: 'occasion' as const, ...o })),
      ...found.data.clients.map((c) => ({ kind: 'client' as const, ...c })),
    ];
  }, [found.data, typed]);
  useEffect(() => setActive(0), [hits]);

  const choose = (hit: SearchHit | undefined) => {
    if (!hit) return;
    onClose();
    onOpen(hit);
  };

  return (
    <div className="search-palette-body">
      <h2 id="search-palette-title" className="visually-hidden">
        {t('search.title')}
      </h2>
      <input
        type="search"
        autoFocus
        value={text}
        role="combobox"
        aria-expanded={hits.length > 0}
        aria-controls={listId}
        aria-activedescendant={hits[active] ? `${listId}-${active}` : undefined}
        aria-label={t('search.title')}
        placeholder={t('search.placeholder')}
        data-testid="search-palette-input"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setActive((i) => Math.min(hits.length - 1, i + 1));
          else if (event.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
          else if (event.key === 'Enter') choose(hits[active]);
          else return;
          event.preventDefault();
        }}
      />
      <ul id={listId} role="listbox" aria-label={t('search.results')} className="search-hits">
        {hits.map((hit, index) => (
          <li
            key={`${hit.kind}:${hit.id}`}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className="search-hit"
            data-testid="search-hit"
            data-kind={hit.kind}
            onMouseMove={() => setActive(index)}
            onClick={() => choose(hit)}
          >
            <span className="search-hit-label">
              {hit.label.trim() || '–'}
              {hit.kind === 'occasion' && hit.datum ? (
                <span className="search-hit-date"> · {formatDate(hit.datum, i18n.language)}</span>
              ) : null}
            </span>
            <span className="search-hit-kind">{t(`search.kind.${hit.kind}`)}</span>
          </li>
        ))}
      </ul>
      {typed && found.data && hits.length === 0 ? (
        <p className="muted" role="status">
          {t('search.none', { text: typed })}
        </p>
      ) : null}
      <p className="keys-hint muted">{t('search.keys')}</p>
    </div>
  );
}
