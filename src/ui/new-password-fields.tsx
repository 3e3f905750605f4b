import { Suspense, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { asIs, useSay, type Said } from '../i18n/said';
import { useTextPart } from '../i18n/parts';
import { LIMITS } from '../contract/limits';
import { PASSWORD_MAX, PASSWORD_MIN, passwordProblem } from '../contract/password-rules';
import { lazyScreen } from './lazy-screen';
import { TextField } from './text-field';

/** The strength meter: its own chunk, so the sign-in page (which shows none) does not carry it. */
const StrengthMeter = lazyScreen(() => import('./strength/strength-meter'));

/**
 * The two fields' values and inputs for a form that only asks a new password (reset, invitation):
 * spread into NewPasswordFields, and checked with newPasswordErrors.
 */
export function useNewPassword() {
  const [password, onPassword] = useState('');
  const [confirm, onConfirm] = useState('');
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  return { password, confirm, onPassword, onConfirm, passwordRef, confirmRef };
}

/** Both required and equal: what is wrong with a new password and its confirmation, field by field. */
export function newPasswordErrors(password: string, confirm: string): { password?: Said; confirm?: Said } {
  return {
    password: password ? undefined : ['login.reset.newRequired'],
    confirm: !confirm
      ? ['login.reset.confirmRequired']
      : password && confirm !== password
        ? ['common.passwordMismatch']
        : undefined,
  };
}

/**
 * What to say of a new password the server refused: the rule it broke in the element's own texts, so
 * that it follows a change of language; else the server's words (in the language it was asked in);
 * else that it failed.
 */
export function passwordRefusal(error: unknown): Said {
  if (!(error instanceof ApiError)) return ['common.failed'];
  const problem = passwordProblem((error.body as { code?: unknown } | null)?.code);
  if (problem) return [`strength.policy.${problem}`, { min: PASSWORD_MIN, max: PASSWORD_MAX }];
  return error.message ? asIs(error.message) : ['common.failed'];
}

/**
 * The new-password and confirm fields (reset screen, change/set dialog): `autocomplete="new-password"`
 * so password managers offer to generate and save, the password-rules hint and the strength meter
 * under the first.
 */
export function NewPasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  errors,
  passwordRef,
  confirmRef,
  autoFocus = false,
  userInputs,
}: {
  password: string;
  confirm: string;
  onPassword(value: string): void;
  onConfirm(value: string): void;
  errors: { password?: Said | null; confirm?: Said | null };
  passwordRef: Ref<HTMLInputElement>;
  confirmRef: Ref<HTMLInputElement>;
  autoFocus?: boolean;
  /** What the strength meter counts as easy to guess: the person's address, name, team. */
  userInputs?: string[];
}) {
  const { t } = useTranslation();
  const say = useSay();
  // The rules' refusals are in the strength meter's texts: loaded with the fields, not at a refusal.
  useTextPart('strength');
  return (
    <>
      <TextField
        label={t('login.reset.newPassword')}
        name="new-password"
        type="password"
        autoComplete="new-password"
        maxLength={LIMITS.newPassword}
        value={password}
        onChange={(event) => onPassword(event.target.value)}
        error={say(errors.password)}
        hint={t('common.passwordRules')}
        inputRef={passwordRef}
        autoFocus={autoFocus}
      />
      <Suspense fallback={null}>
        <StrengthMeter password={password} userInputs={userInputs} />
      </Suspense>
      <TextField
        label={t('login.reset.confirmPassword')}
        name="confirm-password"
        type="password"
        autoComplete="new-password"
        maxLength={LIMITS.newPassword}
        value={confirm}
        onChange={(event) => onConfirm(event.target.value)}
        error={say(errors.confirm)}
        inputRef={confirmRef}
      />
    </>
  );
}
