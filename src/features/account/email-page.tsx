import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { requestEmailChange } from '../../api/account';
import { getPasswordOptions } from '../../api/endpoints';
import { LIMITS } from '../../api/limits';
import { WithTextPart } from '../../i18n/parts';
import { sessionStore } from '../../state/session';
import { Alert } from '../../ui/alert';
import { BusyForm } from '../../ui/busy-form';
import { ScreenLoading, Spinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { Failed } from '../../ui/failed';
import { refusalOf } from '../../api/refusal';
import { useCall } from '../../ui/use-call';
import { LinkAnswer, useEmailLink } from './email-link';

const EMAIL_CODES = ['invalidEmail', 'sameEmail', 'emailTaken'];
const PASSWORD_CODES = ['passwordRequired', 'invalidPassword'];
/** A rough check before asking the server, which has the final word. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function ChangeForm() {
  const { t } = useTranslation();
  const call = useCall();
  const user = useStore(sessionStore, (state) => state.user);
  const [hasPassword, setHasPassword] = useState<boolean | null | 'failed'>(null);
  const [round, setRound] = useState(0);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const titleId = useId();
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const sentAlert = useRef<HTMLDivElement>(null);

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

  useEffect(() => {
    if (sent) sentAlert.current?.focus();
  }, [sent]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const newEmail = email.trim();
    const found: typeof errors = {};
    if (!EMAIL.test(newEmail)) found.email = t('account.errors.invalidEmail');
    if (hasPassword === true && !password) found.password = t('account.errors.passwordRequired');
    setErrors(found);
    if (found.email) return emailInput.current?.focus();
    if (found.password) return passwordInput.current?.focus();
    setBusy(true);
    try {
      const pending = await call((ctx) =>
        requestEmailChange(ctx, { newEmail, ...(hasPassword === true ? { password } : {}) }),
      );
      setSent(pending);
      setEmail('');
      setPassword('');
    } catch (error) {
      const { code } = refusalOf(error);
      if (code && EMAIL_CODES.includes(code)) {
        setErrors({ email: t(`account.errors.${code}`) });
        requestAnimationFrame(() => emailInput.current?.focus());
      } else if (code && PASSWORD_CODES.includes(code)) {
        setErrors({ password: t(`account.errors.${code}`) });
        requestAnimationFrame(() => passwordInput.current?.focus());
      } else {
        setErrors({
          form: code === 'reauthRequired' ? t('account.errors.reauthRequired') : t('common.failed'),
        });
      }
    }
    setBusy(false);
  }

  return (
    <section className="panel" part="card" aria-labelledby={titleId}>
      <h2 className="panel-title" id={titleId}>
        {t('account.email.title')}
      </h2>
      {user ? <p>{t('account.email.current', { email: user.email })}</p> : null}
      <p className="hint">{t('account.email.intro')}</p>
      {hasPassword === null ? (
        <div className="loading" role="status">
          <Spinner />
          <span>{t('common.loading')}</span>
        </div>
      ) : hasPassword === 'failed' ? (
        <Failed retry={() => setRound((n) => n + 1)} />
      ) : (
        <>
          {sent ? (
            <div ref={sentAlert} tabIndex={-1}>
              <Alert tone="success">{t('account.email.sent', { email: sent })}</Alert>
            </div>
          ) : null}
          {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
          <BusyForm
            busy={busy}
            busyLabel={t('common.saving')}
            submitLabel={t('account.email.submit')}
            onSubmit={(event) => void submit(event)}
          >
            <TextField
              label={t('account.email.newEmail')}
              name="newEmail"
              type="email"
              autoComplete="email"
              maxLength={LIMITS.email}
              value={email}
              inputRef={emailInput}
              onChange={(event) => setEmail(event.target.value)}
              error={errors.email}
            />
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
              <p className="hint">{t('account.email.recentSignIn')}</p>
            )}
          </BusyForm>
        </>
      )}
    </section>
  );
}

function EmailScreen() {
  const link = useEmailLink();
  return link ? <LinkAnswer {...link} /> : <ChangeForm />;
}

/**
 * `/manage/email`: change the account's address; the mails' links land here too
 * (`?change=…&token=…` from the new address, `?change=…&undo=…` from the old one).
 */
export default function EmailPage() {
  return (
    <WithTextPart part="account" waiting={<ScreenLoading />} failed={<Failed />}>
      <EmailScreen />
    </WithTextPart>
  );
}
