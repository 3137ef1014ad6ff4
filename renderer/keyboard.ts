// The one place that says whether a key press is the workspace's shortcut or the person's typing:
// a key in something that takes text is a character, and while a modal dialog is open the
// workspaces' shortcuts rest (the dialog owns the keyboard); and where the focus goes next.

/** True when a key goes to something that takes text (a "/" there is a character). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement)
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  return false;
}

/** A modal dialog is open: the workspace's shortcuts rest. */
export function dialogOpen(): boolean {
  return document.querySelector('dialog[open]') !== null;
}

/** Focuses the element `selector` names once it is there (a detail may still be loading). */
export function focusWhenShown(selector: string, tries = 40): void {
  const element = document.querySelector<HTMLElement>(selector);
  if (element) element.focus();
  else if (tries > 0) window.setTimeout(() => focusWhenShown(selector, tries - 1), 50);
}
