import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiContext } from '../../api/client';
import {
  openEmailLink,
  requestEmailCode,
  verifyEmailCode,
  type EmailCodeSent,
  type EmailCodeSignedIn,
} from '../../api/email-code';
import { refusalOf } from '../../api/refusal';
import { EMAIL_CODE_DIGITS } from '../../contract/email-code';
import type { Proof } from '../../contract/schemas/challenge';
import type { TwoStepNeeded } from '../../contract/schemas/two-step';
import { Alert } from '../../ui/alert';
import { Card } from '../../ui/card';
import { useElement } from '../../ui/element-context';
import { useFocusAfterRender } from '../../ui/focus';
import { ProofOfWork } from '../../ui/proof-of-work';
import { Spinner } from '../../ui/spinner';
import { CodeEntry, useCodeForm, type Problem } from './code-form';
import { WithTexts } from './with-texts';

export interface EmailCodeProps {
  team: string;
  /** The team's name as its members know it. */
  teamLabel: string;
  /** The address typed on the sign-in screen: the code is mailed to it. Null on the link's page. */
  email: string | null;
  /** The mail's link token, on the page the link opens. */
  token: string | null;
  /** Where the link's sign-in should lead (the sign-in screen's ReturnUrl). */
  returnUrl: string | null;
  /** The session has begun. */
  onSignedIn(): void;
  /** The code was right and the second step waits, as after a password. */
  onTwoStep(twoStep: TwoStepNeeded['twoStep']): void;
  /** Back to the sign-in screen's other ways. */
  onRestart(): void;
}

/** Only digits count: a pasted "123 456" or "123-456" is the code, letters cannot be part of it. */
export const codeDigits = (value: string) => value.replace(/\D/g, '').slice(0, EMAIL_CODE_DIGITS);

/** What a refused call says: the code was wrong (at the field), or the screen's message. */
export function emailCodeFailure(error: unknown): 'wrongCode' | Problem {
  const { status, code } = refusalOf(error);
  if (status === 401 && code === 'invalidCode') return 'wrongCode';
  if (status === 410) return { message: 'emailCode.gone' };
  if (status === 403 && code === 'notOffered') return { message: 'emailCode.notOffered' };
  if (status === 403 && code === 'disabled') return { message: 'login.disabled' };
  if (status === 403 && code === 'ssoRequired') return { message: 'login.ssoRequired' };
  if (status === 403) return { message: 'login.locked' };
  if (status === 429) return { message: 'login.tooMany' };
  return { message: 'common.failed' };
}

/** `m:ss`, as a countdown reads. */
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * Sign-in with a code mailed to the member: from the sign-in screen, the mail is asked for and the code
 * typed (or pasted, or filled in by the platform's one-time-code autofill), with a new mail on request
 * after a short wait; on the page the mail's link opens, the link signs in — or, in another browser
 * than the one that asked, the screen asks for the code from the same mail. Its own chunk, with the
 * 'security' texts, as the second step.
 */
export default function EmailCode(props: EmailCodeProps) {
  return (
    <WithTexts part="security">
      <CodeScreen {...props} />
    </WithTexts>
  );
}

/** What the screen is doing: sending the mail or opening the link, waiting for the code, or stopped. */
type Phase = 'starting' | 'code' | Problem;

function CodeScreen({
  team,
  teamLabel,
  email,
  token,
  returnUrl,
  onSignedIn,
  onTwoStep,
  onRestart,
}: EmailCodeProps) {
  const { t } = useTranslation();
  const { issuer, language } = useElement();
  const ctx: ApiContext = { issuer, language };
  const [phase, setPhase] = useState<Phase>('starting');
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [resent, setResent] = useState(false);
  const form = useCodeForm(emailCodeFailure);
  const { setCode, failure, busy, setBusy, input, failureAlert, send, fail } = form;
  const focusLater = useFocusAfterRender();
  const problemAlert = useRef<HTMLDivElement>(null);
  // The mail is asked for, or the link opened, once per screen (a second call would use the link up).
  const started = useRef(false);
  // Each mail asked for carries a solved proof-of-work challenge (spent by the server): a new round per
  // request, and another when the server found the solution spent or expired meanwhile.
  const [challenge, setChallenge] = useState<{ round: number; resend: boolean } | null>(null);
  const rounds = useRef(0);
  const challengeAgain = (resend: boolean) => setChallenge({ round: ++rounds.current, resend });

  const finish = (answer: EmailCodeSignedIn) =>
    'twoStep' in answer ? onTwoStep(answer.twoStep) : onSignedIn();
  const sent = (answer: EmailCodeSent) => {
    const at = Date.now();
    setNow(at);
    setResendAt(at + answer.resendAfter * 1000);
  };
  const stop = (caught: unknown) => {
    const failed = emailCodeFailure(caught);
    setPhase(failed === 'wrongCode' ? { message: 'common.failed' } : failed);
    focusLater(problemAlert);
  };

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (token) {
      openEmailLink(ctx, { teamName: team, token }).then(finish, (caught: unknown) => {
        // Another browser than the one that asked: the code from the same mail signs in here.
        if (refusalOf(caught).code === 'otherBrowser') setPhase('code');
        else stop(caught);
      });
    } else if (email) challengeAgain(false);
    // Once per screen: the screen is keyed by its team, and a new address starts a new screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (phase === 'code') input.current?.focus();
  }, [phase, input]);

  // The countdown to another mail, by the second while it runs.
  const wait = Math.max(0, Math.ceil((resendAt - now) / 1000));
  useEffect(() => {
    if (wait === 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [wait]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    let answer: EmailCodeSignedIn | undefined;
    const taken = await send(
      async (value) => {
        answer = await verifyEmailCode(
          ctx,
          token
            ? { teamName: team, token, code: value }
            : { teamName: team, email: email ?? '', code: value },
        );
      },
      {
        required: ['emailCode.codeRequired'],
        wrong: ['emailCode.wrongCode'],
        format: (value) =>
          new RegExp(`^\\d{${EMAIL_CODE_DIGITS}}$`).test(value) ? undefined : ['emailCode.codeFormat'],
      },
    );
    if (taken && answer) finish(answer);
  }

  function resend() {
    if (!email) return;
    setResent(false);
    setBusy(true);
    challengeAgain(true);
  }

  /** The challenge is solved: ask for the mail (the first, or another). */
  async function mail(proof: Proof, resending: boolean) {
    setChallenge(null);
    try {
      sent(
        await requestEmailCode(ctx, {
          teamName: team,
          email: email ?? '',
          proof,
          ...(returnUrl ? { returnUrl } : {}),
        }),
      );
    } catch (caught) {
      const { status, code } = refusalOf(caught);
      if (status === 403 && code?.startsWith('challenge') && code !== 'challengeInvalid') {
        return challengeAgain(resending);
      }
      if (!resending) return stop(caught);
      const failed = emailCodeFailure(caught);
      return fail(failed === 'wrongCode' ? { message: 'common.failed' } : failed);
    }
    if (!resending) return setPhase('code');
    setBusy(false);
    setCode('');
    setResent(true);
    focusLater(input);
  }
  const proofOfWork = challenge ? (
    <ProofOfWork
      key={challenge.round}
      onSolved={(proof) => void mail(proof, challenge.resend)}
      onFailed={() => setBusy(false)}
    />
  ) : null;

  if (phase === 'starting') {
    // Sending the mail says so; opening the link is the sign-in's own wait.
    return (
      <Card busy>
        <div className="loading" role="status">
          <Spinner />
          <span>{t(email ? 'emailCode.sending' : 'login.signingIn')}</span>
        </div>
        {proofOfWork}
      </Card>
    );
  }
  const another = (
    <button type="button" className="link" disabled={busy} onClick={onRestart}>
      {t('emailCode.otherWay')}
    </button>
  );
  if (typeof phase === 'object') {
    return (
      <Card>
        <h1 className="title">{t('emailCode.title')}</h1>
        <Alert tone="error" ref={problemAlert}>
          {t(phase.message)}
        </Alert>
        {another}
      </Card>
    );
  }
  return (
    <Card busy={busy}>
      <h1 className="title">{t('emailCode.title')}</h1>
      <p>{email ? t('emailCode.intro', { email, team: teamLabel }) : t('emailCode.otherBrowser')}</p>
      {failure ? (
        <Alert tone="error" ref={failureAlert}>
          {t(failure.message)}
        </Alert>
      ) : resent ? (
        <Alert tone="success">{t('emailCode.resent')}</Alert>
      ) : null}
      <CodeEntry
        form={form}
        label={t('emailCode.codeLabel')}
        submitLabel={t('login.continue')}
        onSubmit={submit}
        clean={codeDigits}
      />
      {email ? (
        <button type="button" className="link" disabled={busy || wait > 0} onClick={resend}>
          {wait > 0 ? t('emailCode.resendIn', { time: clock(wait) }) : t('emailCode.resend')}
        </button>
      ) : null}
      {proofOfWork}
      {another}
    </Card>
  );
}
