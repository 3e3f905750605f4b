import { useId, type InputHTMLAttributes, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { charCount } from '../contract/limits';

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
  /**
   * The most characters the server takes (a `LIMITS` entry), counted as it counts them. From 80 % of it
   * a counter says how many are left, and past it the field is invalid and says by how many — instead
   * of `maxlength`, which cuts pasted text short without a word.
   */
  limit?: number;
}

/**
 * Fields whose values read left to right in every language (addresses, passwords, codes, numbers): they
 * stay left-to-right inside right-to-left screens, so that "user@example.com" does not become
 * "example.com@user" as it is typed.
 */
export function leftToRight({
  type,
  inputMode,
  autoComplete,
}: InputHTMLAttributes<HTMLInputElement>): boolean {
  return (
    ['email', 'url', 'password', 'tel'].includes(type ?? 'text') ||
    ['email', 'url', 'numeric', 'decimal', 'tel'].includes(inputMode ?? '') ||
    autoComplete === 'one-time-code'
  );
}

/** The share of a field's limit from which its counter shows. */
const COUNT_FROM = 0.8;

/** A labelled text input with its error and hint wired to `aria-describedby` and `aria-invalid`. */
export function TextField({
  label,
  error,
  hint,
  inputRef,
  limit,
  type = 'text',
  className,
  ...input
}: TextFieldProps) {
  if ((UNSUPPORTED_TYPES as readonly string[]).includes(type)) {
    throw new Error(`TextField does not support type="${type}"`);
  }
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const countId = `${id}-count`;
  const count = limit === undefined ? 0 : charCount(String(input.value ?? ''));
  const over = limit !== undefined && count > limit;
  const counting = limit !== undefined && count >= limit * COUNT_FROM;
  const describedBy =
    [error ? errorId : null, counting ? countId : null, hint ? hintId : null].filter(Boolean).join(' ') ||
    undefined;
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        dir={input.dir ?? (leftToRight({ ...input, type }) ? 'ltr' : undefined)}
        ref={inputRef}
        id={id}
        type={type}
        part="input"
        aria-invalid={error || over ? true : undefined}
        aria-describedby={describedBy}
      />
      {limit !== undefined ? (
        // Always there, so that a screen reader hears the count once it shows (a live region added
        // together with its text is not announced).
        <div aria-live="polite">
          {over ? (
            <p className="field-error" id={countId}>
              {t('common.limit.over', { count: count - limit })}
            </p>
          ) : counting ? (
            <p className="hint" id={countId}>
              {t('common.limit.left', { count: limit - count })}
            </p>
          ) : null}
        </div>
      ) : null}
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
