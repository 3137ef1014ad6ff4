// A search-as-you-type picker (the ARIA combobox pattern with a listbox popup): the caller owns
// the text and the options (it queries the core as the text changes), the combobox the keyboard:
// Down/Up move through the options (opening the list), Enter picks, Escape closes the list
// (a second Escape is left to the dialog around it). The first match is highlighted, so typing
// a few letters and Enter is enough.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from './Field';
import './form-controls.css';

export interface ComboboxOption {
  id: string;
  label: string;
  /** A second, quieter line or column (a company's UVT, an occasion's date). */
  detail?: string | null;
}

export interface ComboboxProps {
  label: ReactNode;
  /** The text in the box (the caller's state; it searches with it). */
  inputValue: string;
  onInputChange(text: string): void;
  options: ComboboxOption[];
  /** Called when an option is picked (Enter or click); the caller usually sets the text to its label. */
  onSelect(option: ComboboxOption): void;
  /** The option now chosen, marked in the list. */
  selectedId?: string | null;
  error?: string | null;
  hint?: ReactNode;
  required?: boolean;
  placeholder?: string;
  disabled?: boolean;
  /**
   * A search is under way: said instead of "no matches", and Enter waits for its answer (the
   * options shown may be those of the text before: typing fast and Enter must not pick one).
   */
  loading?: boolean;
  /** Said when there are no options for the text. */
  emptyText?: ReactNode;
  renderOption?(option: ComboboxOption): ReactNode;
  id?: string;
  className?: string;
  'data-testid'?: string;
}

const WORDS = {
  de: {
    loading: 'Wird gesucht …',
    empty: 'Keine Treffer',
    count: (n: number) => (n === 1 ? '1 Treffer' : `${n} Treffer`),
  },
  en: {
    loading: 'Searching …',
    empty: 'No matches',
    count: (n: number) => (n === 1 ? '1 result' : `${n} results`),
  },
};

export function Combobox(props: ComboboxProps) {
  const { i18n } = useTranslation();
  const words = i18n.language === 'en' ? WORDS.en : WORDS.de;
  const generated = useId();
  const id = props.id ?? `combobox${generated}`;
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const { options } = props;

  // New options (the text changed): the first one is the one Enter picks.
  useEffect(() => {
    setActive(0);
  }, [options]);

  const activeOption = open ? options[active] : undefined;
  const optionId = (index: number) => `${id}-option-${index}`;

  useEffect(() => {
    if (!activeOption) return;
    list.current
      ?.querySelector(`#${CSS.escape(optionId(active))}`)
      ?.scrollIntoView({ block: 'nearest' });
  }, [activeOption, active]);

  const pick = (option: ComboboxOption) => {
    setOpen(false);
    props.onSelect(option);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(0);
        } else if (options.length > 0) setActive((index) => (index + 1) % options.length);
        return;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(Math.max(0, options.length - 1));
        } else if (options.length > 0)
          setActive((index) => (index - 1 + options.length) % options.length);
        return;
      case 'Home':
      case 'End':
        if (!open || options.length === 0) return;
        event.preventDefault();
        setActive(event.key === 'Home' ? 0 : options.length - 1);
        return;
      case 'Enter':
        if (open && props.loading) {
          event.preventDefault();
          return;
        }
        if (open && activeOption) {
          event.preventDefault();
          pick(activeOption);
        }
        return;
      case 'Escape':
        if (open) {
          // The list closes; the dialog around stays (its cancel comes from this keydown).
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
        }
        return;
    }
  };

  const showList = open && !props.disabled;
  const status = props.loading
    ? words.loading
    : options.length === 0
      ? props.emptyText || words.empty
      : words.count(options.length);

  return (
    <Field
      label={props.label}
      error={props.error}
      hint={props.hint}
      required={props.required}
      id={id}
      className={['combobox', props.className].filter(Boolean).join(' ')}
    >
      {(control) => (
        <div className="combobox-box">
          <input
            {...control}
            type="text"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={showList}
            aria-controls={listId}
            aria-activedescendant={showList && activeOption ? optionId(active) : undefined}
            autoComplete="off"
            spellCheck={false}
            value={props.inputValue}
            placeholder={props.placeholder}
            disabled={props.disabled}
            data-testid={props['data-testid']}
            onChange={(event) => {
              props.onInputChange(event.target.value);
              setOpen(true);
            }}
            onKeyDown={onKeyDown}
            onClick={() => setOpen(true)}
            onBlur={() => setOpen(false)}
          />
          <ul
            id={listId}
            ref={list}
            role="listbox"
            className="combobox-list"
            hidden={!showList || options.length === 0}
            aria-label={typeof props.label === 'string' ? props.label : undefined}
          >
            {options.map((option, index) => (
              <li
                key={option.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                data-chosen={option.id === props.selectedId || undefined}
                className="combobox-option"
                data-testid="combobox-option"
                // Keeps the focus in the box, so its blur does not close the list first.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => pick(option)}
              >
                {props.renderOption ? (
                  props.renderOption(option)
                ) : (
                  <>
                    <span className="combobox-label">{option.label}</span>
                    {option.detail ? (
                      <span className="combobox-detail">{option.detail}</span>
                    ) : null}
                  </>
                )}
              </li>
            ))}
          </ul>
          {showList && options.length === 0 ? (
            <div className="combobox-list combobox-empty">{status}</div>
          ) : null}
          <span className="visually-hidden" aria-live="polite">
            {showList ? status : ''}
          </span>
        </div>
      )}
    </Field>
  );
}
