import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '../contract/limits';
import { TextField } from './text-field';

/**
 * The new-password and confirm fields (reset screen, change/set dialog): `autocomplete="new-password"`
 * so password managers offer to generate and save, and the password-rules hint under the first.
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
}: {
  password: string;
  confirm: string;
  onPassword(value: string): void;
  onConfirm(value: string): void;
  errors: { password?: string | null; confirm?: string | null };
  passwordRef: Ref<HTMLInputElement>;
  confirmRef: Ref<HTMLInputElement>;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
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
        error={errors.password}
        hint={t('common.passwordRules')}
        inputRef={passwordRef}
        autoFocus={autoFocus}
      />
      <TextField
        label={t('login.reset.confirmPassword')}
        name="confirm-password"
        type="password"
        autoComplete="new-password"
        maxLength={LIMITS.newPassword}
        value={confirm}
        onChange={(event) => onConfirm(event.target.value)}
        error={errors.confirm}
        inputRef={confirmRef}
      />
    </>
  );
}
