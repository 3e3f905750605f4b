import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { askToJoin, verifyJoinCode } from '../../api/endpoints';
import { refusalOf } from '../../api/refusal';
import { LIMITS } from '../../contract/limits';
import { JOIN_CODE_LENGTH } from '../../contract/team-rules';
import { Alert } from '../../ui/alert';
import { BusyForm } from '../../ui/busy-form';
import { Card } from '../../ui/card';
import { useElement } from '../../ui/element-context';
import { useFocusAfterRender } from '../../ui/focus';
import { TextField } from '../../ui/text-field';
import { WithTexts } from './with-texts';

type Step = { kind: 'name' } | { kind: 'code'; requestId: string } | { kind: 'done' };

/**
 * Asking to join a team from the team step (its own chunk: the sign-in page's bytes do not carry it):
 * the person's name, then the code mailed to the work address, then one neutral sentence — the same
 * for every address, whatever the team then does (docs/decisions/join-by-domain.md).
 */
function JoinRequest({
  team,
  email,
  onBack,
}: {
  team: { name: string; displayName: string };
  email: string;
  onBack(): void;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const { issuer } = useElement();
  const [step, setStep] = useState<Step>({ kind: 'name' });
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<Said | null>(null);
  const [failure, setFailure] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const focusLater = useFocusAfterRender();

  // Each step starts at its field; the last one at its heading, which says what happened.
  useEffect(() => {
    (step.kind === 'done' ? heading : input).current?.focus();
  }, [step.kind]);

  const refuse = (message: Said) => {
    setFieldError(message);
    setBusy(false);
    focusLater(input);
  };

  async function send(event?: FormEvent) {
    event?.preventDefault();
    setFailure(null);
    if (!name.trim()) return refuse(['login.join.nameRequired']);
    setFieldError(null);
    setBusy(true);
    try {
      const { requestId } = await askToJoin({ issuer }, { teamName: team.name, email, name });
      setCode('');
      setStep({ kind: 'code', requestId });
    } catch (error) {
      const { status, code: reason } = refusalOf(error);
      if (reason === 'invalidName') return refuse(['login.join.nameInvalid']);
      setFailure(status === 429 ? ['login.join.tooMany'] : ['common.failed']);
    }
    setBusy(false);
  }

  async function confirm(event: FormEvent, requestId: string) {
    event.preventDefault();
    setFailure(null);
    const digits = code.replace(/\s/g, '');
    if (!new RegExp(`^\\d{${JOIN_CODE_LENGTH}}$`).test(digits)) return refuse(['login.join.codeRequired']);
    setFieldError(null);
    setBusy(true);
    try {
      await verifyJoinCode({ issuer }, { requestId, code: digits });
      setBusy(false);
      setStep({ kind: 'done' });
      return;
    } catch (error) {
      const { status, code: reason } = refusalOf(error);
      if (reason === 'wrongCode') return refuse(['login.join.wrongCode']);
      setFailure(status === 429 ? ['login.join.tooMany'] : ['common.failed']);
    }
    setBusy(false);
  }

  const back = (
    <button type="button" className="link" onClick={onBack}>
      {t('login.join.back')}
    </button>
  );

  if (step.kind === 'done')
    return (
      <Card>
        <h1 className="title" tabIndex={-1} ref={heading}>
          {t('login.join.doneTitle')}
        </h1>
        <Alert tone="success">{t('login.join.done', { email })}</Alert>
        {back}
      </Card>
    );

  return (
    <Card busy={busy}>
      <h1 className="title">{t('login.join.title', { team: team.displayName })}</h1>
      {failure ? <Alert tone="error">{say(failure)}</Alert> : null}
      {step.kind === 'name' ? (
        <>
          <p className="hint">{t('login.join.intro', { email })}</p>
          <BusyForm
            busy={busy}
            busyLabel={t('common.loading')}
            submitLabel={t('login.join.send')}
            onSubmit={send}
          >
            <TextField
              label={t('login.join.name')}
              name="name"
              autoComplete="name"
              maxLength={LIMITS.nameInput}
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={say(fieldError)}
              inputRef={input}
            />
          </BusyForm>
        </>
      ) : (
        <>
          <BusyForm
            busy={busy}
            busyLabel={t('common.loading')}
            submitLabel={t('login.join.confirm')}
            onSubmit={(event) => void confirm(event, step.requestId)}
          >
            <TextField
              label={t('login.join.code')}
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={JOIN_CODE_LENGTH + 2}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              hint={t('login.join.codeHint', { email })}
              error={say(fieldError)}
              inputRef={input}
            />
          </BusyForm>
          <button type="button" className="link" disabled={busy} onClick={() => void send()}>
            {t('login.join.resend')}
          </button>
        </>
      )}
      {back}
    </Card>
  );
}

/** Its texts are a part of their own ('join'), asked for as the team step offers joining. */
export default function JoinRequestScreen(props: Parameters<typeof JoinRequest>[0]) {
  return (
    <WithTexts part="join">
      <JoinRequest {...props} />
    </WithTexts>
  );
}
