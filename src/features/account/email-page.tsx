import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { useStore } from 'zustand';
import { cancelEmailChange, getPendingEmail, requestEmailChange, type PendingEmail } from '../../api/account';
import { LIMITS } from '../../contract/limits';
import { WithTextPart } from '../../i18n/parts';
import { noticesStore } from '../../state/notices';
import { sessionStore } from '../../state/session';
import { Alert } from '../../ui/alert';
import { BusyForm } from '../../ui/busy-form';
import { useElement } from '../../ui/element-context';
import { ScreenLoading } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { Failed } from '../../ui/failed';
import { fullTime } from '../../ui/time';
import { refusalOf } from '../../api/refusal';
import { useCall } from '../../ui/use-call';
import { LinkAnswer, useEmailLink } from './email-link';
import { PasswordProofField, ProofGate, usePasswordProof } from './password-proof';

const EMAIL_CODES = ['invalidEmail', 'sameEmail', 'emailTaken'];
const PASSWORD_CODES = ['passwordRequired', 'invalidPassword'];
/** A rough check before asking the server, which has the final word. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The change waiting for its link, as the server has it: shown after a reload too, with a way to cancel
 * it (a mistyped address, or a change no longer wanted) without waiting for the link to expire.
 */
function PendingChange({ pending, cancelled }: { pending: PendingEmail; cancelled(): void }) {
  const { t } = useTranslation();
  const { language } = useElement();
  const call = useCall();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function cancel() {
    setBusy(true);
    setFailed(false);
    try {
      await call(cancelEmailChange);
      noticesStore.getState().show(['account.email.cancelled'], 'Success');
    } catch (error) {
      // 404: it was confirmed, cancelled or expired meanwhile; the screen reads it again either way.
      if (refusalOf(error).status !== 404) {
        setFailed(true);
        setBusy(false);
        return;
      }
    }
    setBusy(false);
    cancelled();
  }

  return (
    <Alert tone="info">
      <p>
        {t('account.email.pending', {
          email: pending.newEmail,
          time: fullTime(pending.expiresAt, language),
        })}
      </p>
      {failed ? <p>{t('common.failed')}</p> : null}
      <button
        type="button"
        className="button secondary small"
        part="button"
        disabled={busy}
        onClick={() => void cancel()}
      >
        {t('account.email.cancel')}
      </button>
    </Alert>
  );
}

function ChangeForm() {
  const { t } = useTranslation();
  const say = useSay();
  const call = useCall();
  const user = useStore(sessionStore, (state) => state.user);
  const proof = usePasswordProof();
  const { hasPassword } = proof;
  const [pending, setPending] = useState<PendingEmail | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: Said; password?: Said; form?: Said }>({});
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const titleId = useId();
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const sentAlert = useRef<HTMLDivElement>(null);

  // What is waiting is extra: the form works without it, so a failure to read it only leaves it out.
  const readPending = useCallback(() => {
    call(getPendingEmail).then(setPending, () => setPending(null));
  }, [call]);
  useEffect(readPending, [readPending]);

  useEffect(() => {
    if (sent) sentAlert.current?.focus();
  }, [sent]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const newEmail = email.trim();
    const found: typeof errors = {};
    if (!EMAIL.test(newEmail)) found.email = ['account.errors.invalidEmail'];
    if (hasPassword === true && !password) found.password = ['account.errors.passwordRequired'];
    setErrors(found);
    if (found.email) return emailInput.current?.focus();
    if (found.password) return passwordInput.current?.focus();
    setBusy(true);
    try {
      const asked = await call((ctx) =>
        requestEmailChange(ctx, { newEmail, ...(hasPassword === true ? { password } : {}) }),
      );
      setSent(asked);
      setEmail('');
      setPassword('');
      readPending();
    } catch (error) {
      const { code } = refusalOf(error);
      if (code && EMAIL_CODES.includes(code)) {
        setErrors({ email: [`account.errors.${code}`] });
        requestAnimationFrame(() => emailInput.current?.focus());
      } else if (code && PASSWORD_CODES.includes(code)) {
        setErrors({ password: [`account.errors.${code}`] });
        requestAnimationFrame(() => passwordInput.current?.focus());
      } else {
        setErrors({
          form: code === 'reauthRequired' ? ['account.errors.reauthRequired'] : ['common.failed'],
        });
      }
    }
    setBusy(false);
  }

  function cancelled() {
    setSent(null);
    readPending();
    requestAnimationFrame(() => emailInput.current?.focus());
  }

  return (
    <section className="panel" part="card" aria-labelledby={titleId}>
      <h2 className="panel-title" id={titleId}>
        {t('account.email.title')}
      </h2>
      {user ? <p>{t('account.email.current', { email: user.email })}</p> : null}
      <p className="hint">{t('account.email.intro')}</p>
      <ProofGate {...proof}>
        {sent ? (
          <div ref={sentAlert} tabIndex={-1}>
            <Alert tone="success">{t('account.email.sent', { email: sent })}</Alert>
          </div>
        ) : null}
        {pending ? <PendingChange pending={pending} cancelled={cancelled} /> : null}
        {errors.form ? <Alert tone="error">{say(errors.form)}</Alert> : null}
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
            error={say(errors.email)}
          />
          <PasswordProofField
            hasPassword={hasPassword === true}
            value={password}
            onChange={setPassword}
            error={say(errors.password)}
            inputRef={passwordInput}
            recentSignIn={t('account.email.recentSignIn')}
          />
        </BusyForm>
      </ProofGate>
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
