import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiContext } from '../../api/client';
import { refusalOf } from '../../api/refusal';
import {
  confirmRequiredEnrolment,
  finishSecondStep,
  startRequiredEnrolment,
  type SecondStepMethod,
  type TotpKey as Key,
} from '../../api/two-step';
import { WithTextPart } from '../../i18n/parts';
import { Alert } from '../../ui/alert';
import { BusyForm } from '../../ui/busy-form';
import { Card, LoadingCard } from '../../ui/card';
import { useElement } from '../../ui/element-context';
import { useFocusAfterRender } from '../../ui/focus';
import { RecoveryCodes } from '../../ui/recovery-codes';
import { TextField } from '../../ui/text-field';
import { TotpKey } from '../../ui/totp-key';
import { passkeyMessage, passkeySignIn } from './passkey';

export interface SecondStepProps {
  team: string;
  /** The team's name as its members know it. */
  teamLabel: string;
  /** What the pending sign-in can be finished with; `enrol`: the team requires an app to be set up first. */
  methods: readonly SecondStepMethod[];
  enrol: boolean;
  /** Whose sign-in it is, for the recovery codes' file (the e-mail typed, or the team). */
  account: string;
  /** The session has begun: finish the sign-in as the first step would have. */
  onSignedIn(): void;
  /** Back to the first step (the pending sign-in expired or the user wants another way). */
  onRestart(): void;
}

/** A failure the screen shows above its form (the key of its text). */
type Problem = { message: string };

/** What a failed call says: the code was wrong (its field says so), or a message for the whole screen. */
function failureOf(error: unknown): 'wrongCode' | Problem {
  const { status, code } = refusalOf(error);
  if (status === 401 && code === 'invalidCode') return 'wrongCode';
  if (status === 401) return { message: 'twoStep.expired' };
  if (status === 403) return { message: 'login.locked' };
  if (status === 429) return { message: 'login.tooMany' };
  return { message: 'common.failed' };
}

/** A form with one code field: its value, the field's error, a failure above it, and sending it. */
function useCodeForm() {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const failureAlert = useRef<HTMLDivElement>(null);
  const focusLater = useFocusAfterRender();

  /**
   * Send the code; a refusal of it shows at the field (`wrong`), any other failure above the form.
   * Whether it was taken (the form stays busy then: what follows is the caller's).
   */
  async function send(
    call: (code: string) => Promise<unknown>,
    texts: { required: string; wrong: string },
  ): Promise<boolean> {
    setFailure(null);
    const value = code.trim();
    if (!value) {
      setError(texts.required);
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

/**
 * The second step of a sign-in (after a password, or a provider when the team asks for it): a code
 * from the authenticator app, a recovery code or a passkey; or, when the team requires two-step
 * sign-in and the user has none, setting up the app first. The pending sign-in lives on the server
 * (five minutes); this screen only finishes it. Its own chunk, with the 'security' texts.
 */
export default function SecondStep(props: SecondStepProps) {
  const { t } = useTranslation();
  return (
    <WithTextPart
      part="security"
      waiting={<LoadingCard />}
      failed={
        <Card>
          <Alert tone="error">{t('common.failed')}</Alert>
        </Card>
      }
    >
      {props.enrol ? <Enrol {...props} /> : <Verify {...props} />}
    </WithTextPart>
  );
}

function useContext(): ApiContext {
  const { issuer, language } = useElement();
  return { issuer, language };
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

function Verify({ team, methods, onSignedIn, onRestart }: SecondStepProps) {
  const { t, i18n } = useTranslation();
  const ctx = useContext();
  const [recovery, setRecovery] = useState(!methods.includes('totp'));
  const { code, setCode, error, setError, failure, busy, setBusy, input, failureAlert, send, fail } =
    useCodeForm();

  useEffect(() => input.current?.focus(), [input, recovery]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const taken = await send(
      (value) => finishSecondStep(ctx, recovery ? { recoveryCode: value } : { code: value }),
      recovery
        ? { required: t('twoStep.recoveryRequired'), wrong: t('twoStep.wrongRecovery') }
        : { required: t('twoStep.codeRequired'), wrong: t('twoStep.wrongCode') },
    );
    if (taken) onSignedIn();
  }

  async function signInWithPasskey() {
    setBusy(true);
    const outcome = await passkeySignIn(ctx, team, { secondStep: true });
    if (outcome === 'signedIn') return onSignedIn();
    // Here the passkey must be the signing-in user's own.
    const message = outcome === 'refused' ? 'twoStep.passkeyRefused' : await passkeyMessage(i18n, outcome);
    fail({ message });
  }

  function switchTo(toRecovery: boolean) {
    setRecovery(toRecovery);
    setCode('');
    setError(undefined);
  }

  const passkeys = methods.includes('passkey') && typeof PublicKeyCredential === 'function';
  return (
    <Card busy={busy}>
      <h1 className="title">{t('twoStep.title')}</h1>
      <p>{t(recovery ? 'twoStep.recoveryIntro' : 'twoStep.codeIntro')}</p>
      {failure ? (
        <Alert tone="error" ref={failureAlert}>
          {t(failure.message)}
        </Alert>
      ) : null}
      <BusyForm
        busy={busy}
        busyLabel={t('login.signingIn')}
        submitLabel={t('login.continue')}
        onSubmit={submit}
      >
        <CodeField
          label={t(recovery ? 'twoStep.recoveryLabel' : 'twoStep.codeLabel')}
          value={code}
          onChange={setCode}
          error={error}
          inputRef={input}
          recovery={recovery}
        />
      </BusyForm>
      {methods.includes('totp') && methods.includes('recovery') ? (
        <button type="button" className="link" disabled={busy} onClick={() => switchTo(!recovery)}>
          {t(recovery ? 'twoStep.useApp' : 'twoStep.useRecovery')}
        </button>
      ) : null}
      {passkeys ? (
        <button type="button" className="link" disabled={busy} onClick={() => void signInWithPasskey()}>
          {t('twoStep.usePasskey')}
        </button>
      ) : null}
      <button type="button" className="link" disabled={busy} onClick={onRestart}>
        {t('twoStep.restart')}
      </button>
    </Card>
  );
}

function Enrol({ teamLabel, account, onSignedIn, onRestart }: SecondStepProps) {
  const { t } = useTranslation();
  const ctx = useContext();
  const [key, setKey] = useState<Key | 'loading' | Problem>('loading');
  const [codes, setCodes] = useState<string[] | null>(null);
  const { code, setCode, error, failure, busy, setBusy, input, failureAlert, send } = useCodeForm();
  const { issuer, language } = ctx;

  useEffect(() => {
    let live = true;
    startRequiredEnrolment({ issuer, language }).then(
      (answer) => live && setKey(answer),
      (caught: unknown) => {
        if (!live) return;
        const failed = failureOf(caught);
        setKey(failed === 'wrongCode' ? { message: 'common.failed' } : failed);
      },
    );
    return () => {
      live = false;
    };
  }, [issuer, language]);

  // The code field takes the focus once the key is shown: the next thing to do is type the app's code.
  const keyShown = typeof key === 'object' && 'uri' in key;
  useEffect(() => {
    if (keyShown) input.current?.focus();
  }, [keyShown, input]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const taken = await send(
      async (value) => setCodes((await confirmRequiredEnrolment(ctx, value)).recoveryCodes),
      { required: t('twoStep.codeRequired'), wrong: t('twoStep.wrongCode') },
    );
    if (taken) setBusy(false);
  }

  if (key === 'loading') return <LoadingCard />;
  const shown = 'uri' in key ? key : null;
  const problem = failure ?? (shown ? null : (key as Problem));
  return (
    <Card busy={busy}>
      <h1 className="title">{t('twoStep.enrolTitle')}</h1>
      {codes ? (
        <>
          <Alert tone="success">{t('twoStep.enrolled')}</Alert>
          <RecoveryCodes codes={codes} account={account} team={teamLabel} />
          <button type="button" className="button block" part="button" onClick={onSignedIn}>
            {t('login.continue')}
          </button>
        </>
      ) : (
        <>
          <p>{t('twoStep.enrolIntro', { team: teamLabel })}</p>
          {problem ? (
            <Alert tone="error" ref={failureAlert}>
              {t(problem.message)}
            </Alert>
          ) : null}
          {shown ? (
            <>
              <TotpKey uri={shown.uri} secret={shown.secret} />
              <BusyForm
                busy={busy}
                busyLabel={t('login.signingIn')}
                submitLabel={t('twoStep.enrolConfirm')}
                onSubmit={submit}
              >
                <CodeField
                  label={t('twoStep.codeLabel')}
                  value={code}
                  onChange={setCode}
                  error={error}
                  inputRef={input}
                />
              </BusyForm>
            </>
          ) : null}
          <button type="button" className="link" disabled={busy} onClick={onRestart}>
            {t('twoStep.restart')}
          </button>
        </>
      )}
    </Card>
  );
}
