import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { BusyForm } from '../../ui/busy-form';
import { useFocusAfterRender } from '../../ui/focus';
import { TextField } from '../../ui/text-field';

/** A failure a code screen shows above its form (the key of its text). */
export type Problem = { message: string };

/**
 * A form with one code field, as the second step and the mailed code share it: its value, the field's
 * error, a failure above it, and sending it. `failureOf` says what a failed call means: the code was
 * wrong (said at the field), or a message for the whole screen.
 */
export function useCodeForm(failureOf: (error: unknown) => 'wrongCode' | Problem) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<Said>();
  const [failure, setFailure] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const failureAlert = useRef<HTMLDivElement>(null);
  const focusLater = useFocusAfterRender();

  /**
   * Send the code; a refusal of it shows at the field (`wrong`), any other failure above the form.
   * `format`, when given, is said at the field for a value that cannot be a code (nothing is sent).
   * Whether it was taken (the form stays busy then: what follows is the caller's).
   */
  async function send(
    call: (code: string) => Promise<unknown>,
    texts: { required: Said; wrong: Said; format?: (value: string) => Said | undefined },
  ): Promise<boolean> {
    setFailure(null);
    const value = code.trim();
    const problem = !value ? texts.required : texts.format?.(value);
    if (problem) {
      setError(problem);
      input.current?.focus();
      return false;
    }
    setError(undefined);
    setBusy(true);
    try {
      await call(value);
      return true;
    } catch (caught) {
      setBusy(false);
      const failed = failureOf(caught);
      if (failed === 'wrongCode') {
        setError(texts.wrong);
        focusLater(input);
      } else {
        setFailure(failed);
        focusLater(failureAlert);
      }
      return false;
    }
  }

  /** Show a failure above the form. */
  function fail(problem: Problem) {
    setBusy(false);
    setFailure(problem);
    focusLater(failureAlert);
  }

  return { code, setCode, error, setError, failure, busy, setBusy, input, failureAlert, send, fail };
}

/** The code field: digits on phones, the one-time-code autofill of the platform. */
function CodeField({
  label,
  value,
  onChange,
  error,
  inputRef,
  recovery = false,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  inputRef: RefObject<HTMLInputElement | null>;
  recovery?: boolean;
}) {
  return (
    <TextField
      label={label}
      name={recovery ? 'recoveryCode' : 'code'}
      inputMode={recovery ? 'text' : 'numeric'}
      autoComplete={recovery ? 'off' : 'one-time-code'}
      dir="ltr"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={recovery ? 40 : 10}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      inputRef={inputRef}
    />
  );
}

/**
 * The form of a code screen: its one code field (as `useCodeForm` holds it) and the submit button,
 * disabled under the sign-in's loading overlay while the code is sent. `clean` tidies what is typed or
 * pasted (the mailed code keeps its digits only).
 */
export function CodeEntry({
  form,
  label,
  submitLabel,
  onSubmit,
  recovery = false,
  clean = (value) => value,
}: {
  form: Pick<ReturnType<typeof useCodeForm>, 'code' | 'setCode' | 'error' | 'busy' | 'input'>;
  label: string;
  submitLabel: string;
  onSubmit(event: FormEvent): void;
  recovery?: boolean;
  clean?: (value: string) => string;
}) {
  const { t } = useTranslation();
  const say = useSay();
  return (
    <BusyForm busy={form.busy} busyLabel={t('login.signingIn')} submitLabel={submitLabel} onSubmit={onSubmit}>
      <CodeField
        label={label}
        value={form.code}
        onChange={(value) => form.setCode(clean(value))}
        error={say(form.error)}
        inputRef={form.input}
        recovery={recovery}
      />
    </BusyForm>
  );
}
