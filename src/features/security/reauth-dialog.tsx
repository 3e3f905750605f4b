import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '../../contract/limits';
import { getReauthOptions } from '../../api/passkeys';
import type { Reauthentication } from '../../api/two-step';
import { FormDialog } from '../../ui/dialog';
import { TextField } from '../../ui/text-field';
import { isCancelled } from './common';
import { DialogForm, useDialogProblem } from './dialog-form';
import { refusalOf } from '../../api/refusal';
import { useCall } from '../../ui/use-call';
import { assertPasskey } from './webauthn';

/**
 * Proof that it is still the user before turning two-step sign-in off or making new recovery codes:
 * the current password, or one of their passkeys (`passkeys`: offer it). `act` sends the proof and
 * resolves when done (the dialog closes); its refusal shows at the password or above the buttons.
 */
export function ReauthDialog({
  open,
  title,
  note,
  submitLabel,
  password,
  passkeys,
  act,
  onClose,
  returnFocus,
}: {
  open: boolean;
  title: string;
  /** What the action does beyond the obvious (new codes: the old ones stop working). */
  note?: string;
  submitLabel: string;
  /** The user has a password (else only a passkey can prove it is them). */
  password: boolean;
  passkeys: boolean;
  act(proof: Reauthentication): Promise<void>;
  onClose(): void;
  returnFocus?: () => HTMLElement | null;
}) {
  return (
    <FormDialog open={open} title={title} onClose={onClose} returnFocus={returnFocus}>
      {(busy, setBusy) => (
        <ReauthForm
          note={note}
          submitLabel={submitLabel}
          password={password}
          passkeys={passkeys}
          act={act}
          onClose={onClose}
          busy={busy}
          setBusy={setBusy}
        />
      )}
    </FormDialog>
  );
}

function ReauthForm({
  note,
  submitLabel,
  password: hasPassword,
  passkeys,
  act,
  onClose,
  busy,
  setBusy,
}: {
  note?: string;
  submitLabel: string;
  password: boolean;
  passkeys: boolean;
  act(proof: Reauthentication): Promise<void>;
  onClose(): void;
  busy: boolean;
  setBusy(busy: boolean): void;
}) {
  const { t } = useTranslation();
  const call = useCall();
  const [password, setPassword] = useState('');
  const { problem, setProblem, show, input, alert, fieldError } = useDialogProblem<'password'>();

  async function attempt(proof: () => Promise<Reauthentication>) {
    setProblem(null);
    setBusy(true);
    try {
      await act(await proof());
      setBusy(false);
      onClose();
    } catch (error) {
      setBusy(false);
      const { code } = refusalOf(error);
      if (isCancelled(error)) show({ at: 'form', message: ['security.reauth.cancelled'], calm: true });
      else if (code === 'InvalidPassword')
        show({ at: 'password', message: ['security.reauth.InvalidPassword'] });
      else if (code === 'passkeyRefused') show({ at: 'form', message: ['security.reauth.passkeyRefused'] });
      else if (code === 'requiredByTeam') show({ at: 'form', message: ['security.totp.requiredByTeam'] });
      else show({ at: 'form', message: ['common.failed'] });
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      show({ at: 'password', message: ['security.reauth.passwordRequired'] });
      return;
    }
    void attempt(async () => ({ password }));
  }

  function withPasskey() {
    void attempt(async () => {
      return { passkey: await assertPasskey(await call(getReauthOptions)) };
    });
  }

  return (
    <DialogForm
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      problem={problem}
      alertRef={alert}
      actions={
        hasPassword ? (
          <button type="submit" className="button" part="button">
            {submitLabel}
          </button>
        ) : passkeys ? (
          <button type="button" className="button" part="button" onClick={withPasskey} autoFocus>
            {t('security.reauth.withPasskey')}
          </button>
        ) : null
      }
      after={
        hasPassword && passkeys ? (
          <>
            <p className="hint">{t('security.reauth.or')}</p>
            <button type="button" className="button secondary block" part="button" onClick={withPasskey}>
              {t('security.reauth.usePasskey')}
            </button>
          </>
        ) : null
      }
    >
      {note ? <p>{note}</p> : null}
      <p>
        {t(
          hasPassword
            ? 'security.reauth.text'
            : passkeys
              ? 'security.reauth.textPasskey'
              : 'security.reauth.noProof',
        )}
      </p>
      {hasPassword ? (
        <TextField
          label={t('security.reauth.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          maxLength={LIMITS.password}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={fieldError('password')}
          inputRef={input}
          autoFocus
        />
      ) : null}
    </DialogForm>
  );
}
