// The one keyboard of a long list (people, hours, what falls due): virtualized rows of which one
// is in the tab order; Up/Down, PageUp/PageDown and Home/End move it and the focus, also to a row
// still to be drawn (it takes the focus once it is). Each list adds its own keys (Enter, Delete).
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

export interface RovingRowsOptions {
  count: number;
  /** A row's height (CSS px), or its estimate when rows are measured. */
  rowHeight: number;
  overscan: number;
  /** Told the rows in view (and a few around): a windowed list reads their blocks. */
  onRange?: (from: number, to: number) => void;
}

export function useRovingRows({ count, rowHeight, overscan, onRange }: RovingRowsOptions) {
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const focusPending = useRef(false);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan,
  });
  const index = Math.min(active, Math.max(0, count - 1));
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows[rows.length - 1]?.index ?? 0;
  useEffect(() => onRange?.(first, last), [first, last, onRange]);

  // A new search or filter starts at the top.
  useEffect(() => {
    if (active >= count && count > 0) setActive(0);
  }, [active, count]);

  // The row moved to gets the focus once it is rendered.
  useEffect(() => {
    if (!focusPending.current) return;
    const row = scroller.current?.querySelector<HTMLElement>(`[data-row-index="${index}"]`);
    if (row) {
      focusPending.current = false;
      row.focus({ preventScroll: true });
    }
  });

  const move = (next: number) => {
    if (count === 0) return;
    const bounded = Math.max(0, Math.min(count - 1, next));
    setActive(bounded);
    virtualizer.scrollToIndex(bounded, { align: 'auto' });
    const row = scroller.current?.querySelector<HTMLElement>(`[data-row-index="${bounded}"]`);
    if (row) row.focus({ preventScroll: true });
    else focusPending.current = true;
  };

  /** Moves by the key pressed on a row (`rowSelector` matches it); answers whether it did. */
  const moveKey = (event: KeyboardEvent<HTMLElement>, rowSelector: string): boolean => {
    if (!(event.target as HTMLElement).matches(rowSelector)) return false;
    if (event.altKey || event.ctrlKey || event.metaKey) return false;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / rowHeight) - 1);
    const to: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: count - 1,
    };
    if (!(event.key in to)) return false;
    event.preventDefault();
    move(to[event.key]!);
    return true;
  };

  return { scroller, virtualizer, rows, index, setActive, move, moveKey };
}
