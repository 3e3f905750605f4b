import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { getPasswordOptions } from '../../api/endpoints';
import { LIMITS } from '../../contract/limits';
import { Failed } from '../../ui/failed';
import { Spinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { useCall } from '../../ui/use-call';

/**
 * What the account's screens that re-authenticate (changing the address, leaving) ask first: whether
 * the user has a password to prove it is them, or signed in with a provider and must have done so
 * recently. Until it is known the screen shows a spinner, and a way to try again if it failed.
 */
export function usePasswordProof(): { hasPassword: boolean | null | 'failed'; retry(): void } {
  const call = useCall();
  const [hasPassword, setHasPassword] = useState<boolean | null | 'failed'>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    call(getPasswordOptions).then(
      (options) => live && setHasPassword(options.hasPassword),
      () => live && setHasPassword('failed'),
    );
    return () => {
      live = false;
    };
  }, [call, round]);

  return { hasPassword, retry: () => setRound((n) => n + 1) };
}

/** The screen's form once the proof it needs is known: a spinner before, a retry if it failed. */
export function ProofGate({
  hasPassword,
  retry,
  children,
}: {
  hasPassword: boolean | null | 'failed';
  retry(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (hasPassword === null)
    return (
      <div className="loading" role="status">
        <Spinner />
        <span>{t('common.loading')}</span>
      </div>
    );
  if (hasPassword === 'failed') return <Failed retry={retry} />;
  return <>{children}</>;
}

/** The current password's field; for a user without one, the hint saying a recent sign-in proves it. */
export function PasswordProofField({
  hasPassword,
  value,
  onChange,
  error,
  inputRef,
  recentSignIn,
}: {
  hasPassword: boolean;
  value: string;
  onChange(value: string): void;
  error?: string;
  inputRef: RefObject<HTMLInputElement | null>;
  /** What a user without a password is told instead. */
  recentSignIn: string;
}) {
  const { t } = useTranslation();
  return hasPassword ? (
    <TextField
      label={t('account.email.password')}
      name="password"
      type="password"
      autoComplete="current-password"
      maxLength={LIMITS.password}
      value={value}
      inputRef={inputRef}
      onChange={(event) => onChange(event.target.value)}
      error={error}
    />
  ) : (
    <p className="hint">{recentSignIn}</p>
  );
}
