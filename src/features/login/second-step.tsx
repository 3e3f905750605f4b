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

/** What a failed call says: the field it concerns, or a message for the whole screen. */
type Failure = { field: string } | { message: string; restart?: boolean };

function failureOf(error: unknown, field: string): Failure {
  const { status, code } = refusalOf(error);
  if (status === 401 && code === 'invalidCode') return { field };
  if (status === 401) return { message: 'twoStep.expired', restart: true };
  if (status === 403) return { message: 'login.locked', restart: true };
  if (status === 429) return { message: 'login.tooMany' };
  return { message: 'common.failed' };
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
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<{ message: string; restart?: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const failureAlert = useRef<HTMLDivElement>(null);
  const focusLater = useFocusAfterRender();

  useEffect(() => input.current?.focus(), [recovery]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const value = code.trim();
    if (!value) {
      setError(t(recovery ? 'twoStep.recoveryRequired' : 'twoStep.codeRequired'));
      input.current?.focus();
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await finishSecondStep(ctx, recovery ? { recoveryCode: value } : { code: value });
    } catch (caught) {
      setBusy(false);
      const failed = failureOf(caught, 'code');
      if ('field' in failed) {
        setError(t(recovery ? 'twoStep.wrongRecovery' : 'twoStep.wrongCode'));
        focusLater(input);
      } else {
        setFailure(failed);
        focusLater(failureAlert);
      }
      return;
    }
    onSignedIn();
  }

  async function signInWithPasskey() {
    setFailure(null);
    setBusy(true);
    const outcome = await passkeySignIn(ctx, team, { secondStep: true });
    if (outcome === 'signedIn') return onSignedIn();
    setBusy(false);
    // Here the passkey must be the signing-in user's own.
    const message = outcome === 'refused' ? 'twoStep.passkeyRefused' : await passkeyMessage(i18n, outcome);
    setFailure({ message, restart: outcome === 'locked' });
    focusLater(failureAlert);
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
  const [key, setKey] = useState<Key | 'loading' | { message: string; restart?: boolean }>('loading');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<{ message: string; restart?: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const failureAlert = useRef<HTMLDivElement>(null);
  const focusLater = useFocusAfterRender();
  const { issuer, language } = ctx;

  useEffect(() => {
    let live = true;
    startRequiredEnrolment({ issuer, language }).then(
      (answer) => live && setKey(answer),
      (caught: unknown) => {
        if (!live) return;
        const failed = failureOf(caught, 'code');
        setKey('field' in failed ? { message: 'common.failed' } : failed);
      },
    );
    return () => {
      live = false;
    };
  }, [issuer, language]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (!code.trim()) {
      setError(t('twoStep.codeRequired'));
      input.current?.focus();
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const answer = await confirmRequiredEnrolment(ctx, code.trim());
      setCodes(answer.recoveryCodes);
    } catch (caught) {
      const failed = failureOf(caught, 'code');
      if ('field' in failed) {
        setError(t('twoStep.wrongCode'));
        focusLater(input);
      } else {
        setFailure(failed);
        focusLater(failureAlert);
      }
    }
    setBusy(false);
  }

  if (key === 'loading') return <LoadingCard />;
  const shown = 'uri' in key ? key : null;
  const problem = failure ?? (shown ? null : (key as { message: string; restart?: boolean }));
  return (
    <Card busy={busy}>
      <h1 className="title">{t('twoStep.enrolTitle')}</h1>
      {codes ? (
        <>
          <Alert tone="success">{t('twoStep.enrolled')}</Alert>
          <RecoveryCodes codes={codes} account={account} />
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
