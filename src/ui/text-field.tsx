import { useId, type InputHTMLAttributes, type Ref } from 'react';

/** Spec §5: these input types are not text inputs; asking the text field for one is a programming error. */
export const UNSUPPORTED_TYPES = [
  'button',
  'checkbox',
  'file',
  'hidden',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
] as const;

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** The error to show under the field (marks it invalid and is announced with it). */
  error?: string | null;
  /** Help text under the field. */
  hint?: string | null;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled text input with its error and hint wired to `aria-describedby` and `aria-invalid`. */
export function TextField({
  label,
  error,
  hint,
  inputRef,
  type = 'text',
  className,
  ...input
}: TextFieldProps) {
  if ((UNSUPPORTED_TYPES as readonly string[]).includes(type)) {
    throw new Error(`TextField does not support type="${type}"`);
  }
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        ref={inputRef}
        id={id}
        type={type}
        part="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
