import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { deleteAccount } from '../../api/account';
import { getPasswordOptions } from '../../api/endpoints';
import { LIMITS } from '../../api/limits';
import { WithTextPart } from '../../i18n/parts';
import { sessionStore } from '../../state/session';
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
import { LoadingOverlay } from '../../ui/loading-overlay';
import { useRouter } from '../../ui/router';
import { ScreenLoading, Spinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { Failed } from '../../ui/failed';
import { refusalOf } from '../../api/refusal';
import { useCall } from '../../ui/use-call';

/** Delete the account: re-authenticated, then asked once more in plain words. */
function LeaveScreen() {
  const { t } = useTranslation();
  const call = useCall();
  const router = useRouter();
  const user = useStore(sessionStore, (state) => state.user);
  const [hasPassword, setHasPassword] = useState<boolean | null | 'failed'>(null);
  const [round, setRound] = useState(0);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ password?: string; form?: string }>({});
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const textId = useId();
  const passwordInput = useRef<HTMLInputElement>(null);
  const formAlert = useRef<HTMLDivElement>(null);

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

  function ask(event: FormEvent) {
    event.preventDefault();
    if (hasPassword === true && !password) {
      setErrors({ password: t('account.errors.passwordRequired') });
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
        setErrors({ password: t(`account.errors.${code}`) });
        setTimeout(() => passwordInput.current?.focus(), 100);
      } else {
        setErrors({
          form:
            code === 'lastOwner'
              ? t('account.leave.lastOwner')
              : code === 'reauthRequired'
                ? t('account.errors.reauthRequired')
                : t('common.failed'),
        });
        setTimeout(() => formAlert.current?.focus(), 100);
      }
    }
  }

  return (
    <section className="panel" part="card" aria-labelledby={titleId}>
      <h2 className="panel-title" id={titleId}>
        {t('account.leave.title')}
      </h2>
      <p>{t('account.leave.intro', { team: user?.team ?? '' })}</p>
      {hasPassword === null ? (
        <div className="loading" role="status">
          <Spinner />
          <span>{t('common.loading')}</span>
        </div>
      ) : hasPassword === 'failed' ? (
        <Failed retry={() => setRound((n) => n + 1)} />
      ) : (
        <>
          {errors.form ? (
            <div ref={formAlert} tabIndex={-1}>
              <Alert tone="error">{errors.form}</Alert>
            </div>
          ) : null}
          <form className="stack" noValidate onSubmit={ask}>
            {hasPassword ? (
              <TextField
                label={t('account.email.password')}
                name="password"
                type="password"
                autoComplete="current-password"
                maxLength={LIMITS.password}
                value={password}
                inputRef={passwordInput}
                onChange={(event) => setPassword(event.target.value)}
                error={errors.password}
              />
            ) : (
              <p className="hint">{t('account.leave.recentSignIn')}</p>
            )}
            <button type="submit" className="button danger" part="button">
              {t('account.leave.submit')}
            </button>
          </form>
        </>
      )}
      <Dialog
        open={asking}
        title={t('account.leave.confirmTitle')}
        closable={!busy}
        describedBy={textId}
        returnFocus={() => passwordInput.current}
        onClose={() => setAsking(false)}
      >
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          <fieldset disabled={busy}>
            <p id={textId}>{t('account.leave.confirmText')}</p>
            {/* Cancel first: the dialog gives it focus, so Enter at once deletes nothing. */}
            <div className="dialog-actions">
              <button
                type="button"
                className="button secondary"
                part="button"
                onClick={() => setAsking(false)}
              >
                {t('common.cancel')}
              </button>
              <button type="submit" className="button danger" part="button">
                {t('account.leave.confirmAction')}
              </button>
            </div>
          </fieldset>
          {busy ? <LoadingOverlay label={t('common.saving')} /> : null}
        </form>
      </Dialog>
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
