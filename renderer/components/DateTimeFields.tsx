// A day and a time of day typed as text in the app's language (renderer/date-entry.ts), instead
// of the browser's native pickers, which follow the browser's language and give a date four Tab
// stops. One Tab stop each; Up/Down step a day or a quarter of an hour; shorthand is written
// out on leaving the field; a date is read back in words below it ("Do., 26. Nov. 2026"), so a
// day and month typed the wrong way round show at once. The form gets YYYY-MM-DD / HH:mm, or
// what was typed when it means no date or time (the form's check names it, nothing is lost).
import { useEffect, useRef, useState, type InputHTMLAttributes, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ISO_DAY,
  TIME_OF_DAY,
  datePattern,
  parseDay,
  parseTime,
  showDay,
  stepDay,
  stepTime,
} from '../date-entry';
import { formatDay, serviceDay } from '../format';
import { Field, type FieldProps } from './Field';

const QUARTER_HOUR = 15;

type EntryProps = Omit<FieldProps, 'children'> &
  Pick<InputHTMLAttributes<HTMLInputElement>, 'disabled' | 'autoFocus'> & {
    value: string;
    onValueChange(value: string): void;
    /** The date in words under the field (dates only; off in a tight filter bar). */
    readBack?: boolean;
  };

interface Kind {
  show(value: string, language: string): string;
  /** The value a text means: the canonical form, '' for nothing, or the text itself. */
  read(text: string): string;
  valid(value: string): boolean;
  step(value: string, up: boolean): string;
  placeholder(language: string): string;
}

/** A text that is no day keeps no ISO shape: an impossible "2026-02-31" must not pass as one. */
const notADay = (typed: string) => (ISO_DAY.test(typed) ? `${typed} ` : typed);

const DAY_KIND: Kind = {
  show: showDay,
  read: (text) =>
    text.trim() === '' ? '' : (parseDay(text, serviceDay()) ?? notADay(text.trim())),
  valid: (value) => ISO_DAY.test(value),
  step: (value, up) => stepDay(value, up ? 1 : -1),
  placeholder: datePattern,
};

const TIME_KIND: Kind = {
  show: (value) => value,
  read: (text) => (text.trim() === '' ? '' : (parseTime(text) ?? text.trim())),
  valid: (value) => TIME_OF_DAY.test(value),
  step: (value, up) => stepTime(value, up ? QUARTER_HOUR : -QUARTER_HOUR),
  placeholder: () => 'hh:mm',
};

/** The text in the box, following the value from outside and the language. */
function useEntry(kind: Kind, props: EntryProps, language: string) {
  const { value, onValueChange } = props;
  const [text, setText] = useState(() => kind.show(value, language));
  /** The value this field last handed on: a change from elsewhere is shown, its own is not. */
  const handed = useRef(value);
  const shownIn = useRef(language);
  useEffect(() => {
    const newLanguage = shownIn.current !== language;
    shownIn.current = language;
    if (value === handed.current && !newLanguage) return;
    handed.current = value;
    setText(kind.show(value, language));
  }, [kind, value, language]);

  const hand = (next: string) => {
    handed.current = next;
    onValueChange(next);
  };
  return {
    text,
    onChange(typed: string) {
      setText(typed);
      hand(kind.read(typed));
    },
    /** Shorthand written out ("0830" → "08:30"); what means nothing stays as typed. */
    onBlur() {
      const read = kind.read(text);
      if (kind.valid(read)) setText(kind.show(read, language));
    },
    onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
      if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const read = kind.read(text);
      const start = kind.valid(read)
        ? read
        : kind === DAY_KIND && read === ''
          ? serviceDay()
          : null;
      if (start === null) return;
      event.preventDefault();
      const next = read === '' ? start : kind.step(start, event.key === 'ArrowUp');
      setText(kind.show(next, language));
      hand(next);
    },
  };
}

function EntryField({ kind, ...props }: EntryProps & { kind: Kind }) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const entry = useEntry(kind, props, language);
  const { value, readBack, disabled, autoFocus, 'data-testid': testId } = props;
  const frame: Omit<FieldProps, 'children'> = {
    label: props.label,
    error: props.error,
    hint: props.hint,
    required: props.required,
    id: props.id,
    className: props.className,
    hideLabel: props.hideLabel,
  };
  const words = readBack && kind.valid(value) ? formatDay(value, language) : null;
  const hint =
    words || frame.hint ? (
      <>
        {words}
        {words && frame.hint ? ' · ' : null}
        {frame.hint}
      </>
    ) : undefined;
  return (
    <Field {...frame} hint={hint}>
      {(control) => (
        <input
          {...control}
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={entry.text}
          placeholder={kind.placeholder(language)}
          disabled={disabled}
          autoFocus={autoFocus}
          data-testid={testId}
          onChange={(event) => entry.onChange(event.target.value)}
          onBlur={entry.onBlur}
          onKeyDown={entry.onKeyDown}
        />
      )}
    </Field>
  );
}

/** A day: YYYY-MM-DD in, YYYY-MM-DD (or the text typed, when it is no day) out. */
export function DateField(props: EntryProps) {
  return <EntryField kind={DAY_KIND} readBack {...props} />;
}

/** A time of day: HH:mm in, HH:mm (or the text typed, when it is no time) out. */
export function TimeField(props: EntryProps) {
  return <EntryField kind={TIME_KIND} {...props} />;
}
