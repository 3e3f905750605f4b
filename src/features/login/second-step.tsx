import { useEffect, useState, type FormEvent } from 'react';
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
import { Alert } from '../../ui/alert';
import { Card, LoadingCard } from '../../ui/card';
import { useElement } from '../../ui/element-context';
import { RecoveryCodes } from '../../ui/recovery-codes';
import { TotpKey } from '../../ui/totp-key';
import { CodeEntry, useCodeForm, type Problem } from './code-form';
import { WithTexts } from './with-texts';
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

/** What a failed call says: the code was wrong (its field says so), or a message for the whole screen. */
function failureOf(error: unknown): 'wrongCode' | Problem {
  const { status, code } = refusalOf(error);
  if (status === 401 && code === 'invalidCode') return 'wrongCode';
  if (status === 401) return { message: 'twoStep.expired' };
  if (status === 403) return { message: 'login.locked' };
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
  return <WithTexts part="security">{props.enrol ? <Enrol {...props} /> : <Verify {...props} />}</WithTexts>;
}

function useContext(): ApiContext {
  const { issuer, language } = useElement();
  return { issuer, language };
}

function Verify({ team, methods, onSignedIn, onRestart }: SecondStepProps) {
  const { t, i18n } = useTranslation();
  const ctx = useContext();
  const [recovery, setRecovery] = useState(!methods.includes('totp'));
  const form = useCodeForm(failureOf);
  const { setCode, setError, failure, busy, setBusy, input, failureAlert, send, fail } = form;

  useEffect(() => input.current?.focus(), [input, recovery]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const taken = await send(
      (value) => finishSecondStep(ctx, recovery ? { recoveryCode: value } : { code: value }),
      recovery
        ? { required: ['twoStep.recoveryRequired'], wrong: ['twoStep.wrongRecovery'] }
        : { required: ['twoStep.codeRequired'], wrong: ['twoStep.wrongCode'] },
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
      <CodeEntry
        form={form}
        label={t(recovery ? 'twoStep.recoveryLabel' : 'twoStep.codeLabel')}
        submitLabel={t('login.continue')}
        onSubmit={submit}
        recovery={recovery}
      />
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
  const form = useCodeForm(failureOf);
  const { failure, busy, setBusy, input, failureAlert, send } = form;
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
      { required: ['twoStep.codeRequired'], wrong: ['twoStep.wrongCode'] },
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
              <CodeEntry
                form={form}
                label={t('twoStep.codeLabel')}
                submitLabel={t('twoStep.enrolConfirm')}
                onSubmit={submit}
              />
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
