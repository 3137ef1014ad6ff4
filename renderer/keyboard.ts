// The one place that says whether a key press is the workspace's shortcut or the person's typing:
// a key in something that takes text is a character, and while a modal dialog is open the
// workspaces' shortcuts rest (the dialog owns the keyboard).

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
