import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { useStore } from 'zustand';
import { deleteAccount } from '../../api/account';
import { WithTextPart } from '../../i18n/parts';
import { sessionStore } from '../../state/session';
import { Alert } from '../../ui/alert';
import { QuestionDialog } from '../../ui/confirm-dialog';
import { afterDialogs } from '../../ui/dialog';
import { useRouter } from '../../ui/router';
import { ScreenLoading } from '../../ui/spinner';
import { Failed } from '../../ui/failed';
import { refusalOf } from '../../api/refusal';
import { useCall } from '../../ui/use-call';
import { PasswordProofField, ProofGate, usePasswordProof } from './password-proof';

/** Delete the account: re-authenticated, then asked once more in plain words. */
function LeaveScreen() {
  const { t } = useTranslation();
  const say = useSay();
  const call = useCall();
  const router = useRouter();
  // The team's display name, as the rest of the portal shows it; its slug only until the team is in.
  const team = useStore(sessionStore, (state) => state.team?.displayName ?? state.user?.team ?? '');
  const { hasPassword, retry } = usePasswordProof();
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ password?: Said; form?: Said }>({});
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const passwordInput = useRef<HTMLInputElement>(null);
  const formAlert = useRef<HTMLDivElement>(null);

  function ask(event: FormEvent) {
    event.preventDefault();
    if (hasPassword === true && !password) {
      setErrors({ password: ['account.errors.passwordRequired'] });
      passwordInput.current?.focus();
      return;
    }
    setErrors({});
    setAsking(true);
  }

  async function confirm() {
    setBusy(true);
    try {
      await call((ctx) => deleteAccount(ctx, hasPassword === true ? { password } : {}));
      // The account is gone: forget the signed-in state and go to the sign-in screen.
      router.navigate('/login/team', { replace: true });
      sessionStore.getState().reset();
      return;
    } catch (error) {
      const { code } = refusalOf(error);
      setBusy(false);
      setAsking(false);
      if (code === 'passwordRequired' || code === 'invalidPassword') {
        setErrors({ password: [`account.errors.${code}`] });
        afterDialogs(() => passwordInput.current?.focus());
      } else {
        setErrors({
          form:
            code === 'lastOwner'
              ? ['account.leave.lastOwner']
              : code === 'reauthRequired'
                ? ['account.errors.reauthRequired']
                : ['common.failed'],
        });
        afterDialogs(() => formAlert.current?.focus());
      }
    }
  }

  return (
    <section className="panel" part="card" aria-labelledby={titleId}>
      <h2 className="panel-title" id={titleId}>
        {t('account.leave.title')}
      </h2>
      <p>{t('account.leave.intro', { team })}</p>
      <ProofGate hasPassword={hasPassword} retry={retry}>
        {errors.form ? (
          <div ref={formAlert} tabIndex={-1}>
            <Alert tone="error">{say(errors.form)}</Alert>
          </div>
        ) : null}
        <form className="stack" noValidate onSubmit={ask}>
          <PasswordProofField
            hasPassword={hasPassword === true}
            value={password}
            onChange={setPassword}
            error={say(errors.password)}
            inputRef={passwordInput}
            recentSignIn={t('account.leave.recentSignIn')}
          />
          <button type="submit" className="button danger" part="button">
            {t('account.leave.submit')}
          </button>
        </form>
      </ProofGate>
      <QuestionDialog
        open={asking}
        title={t('account.leave.confirmTitle')}
        text={t('account.leave.confirmText')}
        action={t('account.leave.confirmAction')}
        busy={busy}
        returnFocus={() => passwordInput.current}
        onConfirm={() => void confirm()}
        onClose={() => setAsking(false)}
      />
    </section>
  );
}

/** `/manage/leave`: delete one's own account (leave the team). */
export default function LeavePage() {
  return (
    <WithTextPart part="account" waiting={<ScreenLoading />} failed={<Failed />}>
      <LeaveScreen />
    </WithTextPart>
  );
}
