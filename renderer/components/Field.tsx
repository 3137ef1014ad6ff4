// A form field: its label, the control, a hint and the error text, linked for screen readers
// (aria-describedby, aria-invalid). Every form of the renderer uses it, so an error always shows
// beside its field in the same way and what was typed stays in the control.
import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import './form-controls.css';

/** What a control needs to be linked to its field (spread onto the input). */
export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
  'aria-required'?: true;
}

export interface FieldProps {
  label: ReactNode;
  /** The words of the error (null/undefined/'': none). */
  error?: string | null;
  hint?: ReactNode;
  required?: boolean;
  /** A control's own id, when the caller needs to know it (a focus after an error). */
  id?: string;
  className?: string;
  /** Hides the label visually (a table's inline input), still read by screen readers. */
  hideLabel?: boolean;
  'data-testid'?: string;
  children: (control: FieldControlProps) => ReactNode;
}

/** The field's frame, with any control: `<Field label="…">{(p) => <input {...p} />}</Field>`. */
export function Field(props: FieldProps) {
  const generated = useId();
  const id = props.id ?? `field${generated}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [props.hint ? hintId : null, props.error ? errorId : null].filter(Boolean).join(' ') ||
    undefined;
  const control: FieldControlProps = {
    id,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(props.error ? { 'aria-invalid': true as const } : {}),
    ...(props.required ? { 'aria-required': true as const } : {}),
  };
  return (
    <div
      className={['field', props.error ? 'invalid' : null, props.className]
        .filter(Boolean)
        .join(' ')}
      data-testid={props['data-testid']}
    >
      <label htmlFor={id} className={props.hideLabel ? 'visually-hidden' : undefined}>
        {props.label}
        {props.required ? (
          <span className="field-required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {props.children(control)}
      {props.hint ? (
        <span id={hintId} className="field-hint hint">
          {props.hint}
        </span>
      ) : null}
      {props.error ? (
        <span id={errorId} className="field-error" data-testid="field-error">
          {props.error}
        </span>
      ) : null}
    </div>
  );
}

type FrameProps = Omit<FieldProps, 'children'>;

/** Splits a field's props: the frame's, and the rest for the control (a data-testid names the control). */
type FrameKey = Exclude<keyof FrameProps, 'data-testid'>;
function frameOf<T extends FrameProps>(props: T): [FrameProps, Omit<T, FrameKey>] {
  const { label, error, hint, required, id, className, hideLabel, ...rest } = props;
  return [{ label, error, hint, required, id, className, hideLabel }, rest];
}

export type InputFieldProps = FrameProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'required'>;

/** A labelled <input>; the other props go to the input (value, onChange, type, …). */
export function InputField(props: InputFieldProps) {
  const [frame, input] = frameOf(props);
  return <Field {...frame}>{(control) => <input {...input} {...control} />}</Field>;
}

export type SelectFieldProps = FrameProps &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'required'> & { children: ReactNode };

/** A labelled <select>; its <option>s are the children. */
export function SelectField(props: SelectFieldProps) {
  const [frame, { children, ...select }] = frameOf(props);
  return (
    <Field {...frame}>
      {(control) => (
        <select {...select} {...control}>
          {children}
        </select>
      )}
    </Field>
  );
}

export type TextareaFieldProps = FrameProps &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'required'>;

/** A labelled <textarea>. */
export function TextareaField(props: TextareaFieldProps) {
  const [frame, textarea] = frameOf(props);
  return <Field {...frame}>{(control) => <textarea {...textarea} {...control} />}</Field>;
}
