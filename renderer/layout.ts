// The workspaces' layout: a workspace fills the height the window leaves below the top bar, and
// says how wide it is (two panes side by side, or one at a time).
import { useLayoutEffect, useState, type RefObject } from 'react';

/** Keeps the element as tall as the window leaves below its top, and says how wide it is. */
export function useFill(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const fit = () => {
      const top = element.getBoundingClientRect().top + window.scrollY;
      element.style.height = `${Math.max(320, window.innerHeight - top - 16)}px`;
      setWidth(element.clientWidth);
    };
    fit();
    // What sits above may change height (the top bar wraps while syncing, a banner comes).
    const observer = new ResizeObserver(fit);
    observer.observe(document.documentElement);
    observer.observe(element);
    const topbar = document.querySelector('.topbar');
    if (topbar) observer.observe(topbar);
    window.addEventListener('resize', fit);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', fit);
    };
  }, [ref]);
  return width;
}
