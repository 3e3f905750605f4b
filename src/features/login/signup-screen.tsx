import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { refusalOf } from '../../api/refusal';
import {
  checkTeamAddress,
  completeSignUp,
  openSignUpLink,
  startSignUp,
  verifySignUp,
  type SignUpVerified,
} from '../../api/sign-up';
import { charCount, LIMITS } from '../../contract/limits';
import { safeReturnUrl } from '../../contract/return-url';
import type { Proof } from '../../contract/schemas/challenge';
import {
  SIGN_UP_CODE_DIGITS,
  suggestTeamAddress,
  TEAM_ADDRESS_CHECK_MS,
  TEAM_ADDRESS_MAX,
  teamAddressProblem,
  type TeamAddressProblem,
} from '../../contract/sign-up';
import { noticesStore } from '../../state/notices';
import { Alert } from '../../ui/alert';
import { BusyForm } from '../../ui/busy-form';
import { Card, LoadingCard } from '../../ui/card';
import { useElement } from '../../ui/element-context';
import { useFocusAfterRender } from '../../ui/focus';
import {
  NewPasswordFields,
  newPasswordErrors,
  passwordRefusal,
  useNewPassword,
} from '../../ui/new-password-fields';
import { ProofOfWork } from '../../ui/proof-of-work';
import { Link, useRouter, useSearchParam } from '../../ui/router';
import { TextField } from '../../ui/text-field';
import { SIGN_UP_PATH, withReturnUrl } from './routes';
import { beginSession } from './sign-in-steps';
import { WithTexts } from './with-texts';

/** Where the new owner lands: the team area, with its first-steps checklist. */
export const AFTER_SIGN_UP = '/manage/team';

type Step =
  | { kind: 'details' }
  | { kind: 'code'; signUpId: string }
  /** The mail's link is being checked. */
  | { kind: 'link' }
  | { kind: 'password'; verified: SignUpVerified }
  | { kind: 'gone' };

/** What the screen knows of the address as it is typed. */
type Availability =
  { state: 'idle' | 'checking' | 'free' } | { state: 'problem'; problem: TeamAddressProblem };

type Fields = 'teamName' | 'address' | 'name' | 'email' | 'code' | 'password' | 'confirm';
type FieldErrors = Partial<Record<Fields, Said>>;

/**
 * Starting a team (`/signup`, when the portal's sign-up is open): a lazily loaded chunk with its texts
 * in the 'invite' part, so the sign-in page pays for none of it.
 */
export default function SignUpScreen() {
  return (
    <WithTexts part="invite">
      <SignUp />
    </WithTexts>
  );
}

/** The address as the team will have it, said while it is typed: free, or why not. */
function useAvailability(address: string): Availability {
  const { issuer, language } = useElement();
  // The server's answer, for the address it was asked about (an older address's answer is not shown).
  const [answer, setAnswer] = useState<{ address: string; availability: Availability } | null>(null);
  const local = address ? teamAddressProblem(address) : null;
  useEffect(() => {
    if (!address || teamAddressProblem(address)) return;
    const controller = new AbortController();
    // Asked once the typing pauses.
    const timer = setTimeout(() => {
      checkTeamAddress({ issuer, language, signal: controller.signal }, address).then(
        (reply) =>
          setAnswer({
            address,
            availability:
              reply.available || !reply.problem
                ? { state: 'free' }
                : { state: 'problem', problem: reply.problem },
          }),
        () => !controller.signal.aborted && setAnswer({ address, availability: { state: 'idle' } }),
      );
    }, TEAM_ADDRESS_CHECK_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [issuer, language, address]);
  if (!address) return { state: 'idle' };
  if (local) return { state: 'problem', problem: local };
  return answer?.address === address ? answer.availability : { state: 'checking' };
}

/**
 * The team's name and address, the person's name and work address; the code mailed there (or the
 * mail's link, which opens this screen at the password step); then the owner's password, and the team
 * is made with them signed in, landing in the team area.
 */
function SignUp() {
  const { t } = useTranslation();
  const say = useSay();
  const { issuer, language, emit } = useElement();
  const router = useRouter();
  const linkId = useSearchParam('id');
  const linkToken = useSearchParam('token');
  // Where the person came from, such as an app's sign-in: the new owner goes on there.
  const returnUrl = useSearchParam('ReturnUrl');
  const validReturnUrl = safeReturnUrl(returnUrl, location.origin);
  const [step, setStep] = useState<Step>(linkId && linkToken ? { kind: 'link' } : { kind: 'details' });
  const [teamName, setTeamName] = useState('');
  const [address, setAddress] = useState('');
  // The address follows the name until the person types one of their own.
  const [addressTyped, setAddressTyped] = useState(false);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const newPassword = useNewPassword();
  const { password, confirm, passwordRef, confirmRef } = newPassword;
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<Said | null>(null);
  const [notice, setNotice] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  // Another sign-up took the address meanwhile: the password step lets the person pick another.
  const [retakeAddress, setRetakeAddress] = useState(false);
  const completing = useRef(false);
  const refs = {
    teamName: useRef<HTMLInputElement>(null),
    address: useRef<HTMLInputElement>(null),
    name: useRef<HTMLInputElement>(null),
    email: useRef<HTMLInputElement>(null),
    code: useRef<HTMLInputElement>(null),
    password: passwordRef,
    confirm: confirmRef,
  };
  // The mail is asked for with a solved proof-of-work challenge, as forgot password does: solved while
  // the person types (from their first key), so sending rarely waits; `round` starts a new one after
  // each use (a solution is accepted once), which a resend then has ready.
  const [challenge, setChallenge] = useState<{ round: number } | null>(null);
  // The solution not used yet, and whether a send waits for one: refs, so that a send made in the
  // moment a solution arrives (before the screen renders again) still sees it.
  const solution = useRef<Proof | null>(null);
  const waiting = useRef(false);
  const startChallenge = () => setChallenge((now) => now ?? { round: 0 });
  const failureAlert = useRef<HTMLDivElement>(null);
  const focusLater = useFocusAfterRender();
  const availability = useAvailability(address);
  const ctx = { issuer, language };

  // The mail's link: the address is verified by opening it, and the password step follows.
  useEffect(() => {
    if (!linkId || !linkToken) return;
    let live = true;
    openSignUpLink({ issuer, language }, linkId, linkToken).then(
      (verified) => live && toPassword(verified),
      (error: unknown) => {
        if (!live) return;
        const { status } = refusalOf(error);
        if (status === 410) setStep({ kind: 'gone' });
        else {
          setStep({ kind: 'details' });
          setFailure(status === 429 ? ['signup.tooMany'] : ['common.failed']);
        }
      },
    );
    return () => {
      live = false;
    };
    // Opened once, for the address the page was opened at.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Each step starts at its first field.
  useEffect(() => {
    if (step.kind === 'details') refs.teamName.current?.focus();
    if (step.kind === 'code') refs.code.current?.focus();
    if (step.kind === 'password') refs.password.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step.kind]);

  function toPassword(verified: SignUpVerified) {
    setTeamName(verified.teamName);
    setAddress(verified.address);
    setEmail(verified.email);
    setErrors({});
    setFailure(null);
    setStep({ kind: 'password', verified });
  }

  /** Show what is wrong, field by field, and go to the first. */
  function refuse(found: FieldErrors): boolean {
    setErrors(found);
    const first = (Object.keys(refs) as Fields[]).find((field) => found[field]);
    if (!first) return false;
    focusLater(refs[first]);
    return true;
  }

  const problemText = (problem: TeamAddressProblem): Said => [`signup.problem.${problem}`];

  function fail(error: unknown) {
    const { status, code: reason, field } = refusalOf(error);
    if (field === 'address' && reason) return refuse({ address: problemText(reason as TeamAddressProblem) });
    if (field === 'teamName')
      return refuse({
        teamName: reason === 'offensive' ? ['signup.teamNameOffensive'] : ['signup.teamNameRequired'],
      });
    if (field === 'name') return refuse({ name: ['invite.nameInvalid'] });
    if (field === 'email') return refuse({ email: ['signup.emailInvalid'] });
    setFailure(
      reason === 'locked' ? ['signup.locked'] : status === 429 ? ['signup.tooMany'] : ['common.failed'],
    );
    focusLater(failureAlert);
    return true;
  }

  async function send(event?: FormEvent) {
    event?.preventDefault();
    setFailure(null);
    setNotice(null);
    const local = address ? teamAddressProblem(address) : 'invalid';
    const found: FieldErrors = {
      teamName: teamName.trim()
        ? charCount(teamName) > LIMITS.name
          ? ['invite.nameInvalid']
          : undefined
        : ['signup.teamNameRequired'],
      address: local
        ? problemText(local)
        : availability.state === 'problem'
          ? problemText(availability.problem)
          : undefined,
      name: !name.trim()
        ? ['invite.nameRequired']
        : charCount(name) > LIMITS.name
          ? ['invite.nameInvalid']
          : undefined,
      email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email.trim()) ? undefined : ['signup.emailInvalid'],
    };
    if (step.kind === 'details' && refuse(found)) return;
    setBusy(true);
    if (solution.current) return post(solution.current);
    // Not solved yet (or not started, for details filled in by the browser): sent when it is.
    waiting.current = true;
    startChallenge();
  }

  /** Ask for the mail with a solved challenge. */
  async function post(proof: Proof) {
    waiting.current = false;
    solution.current = null;
    setChallenge((now) => ({ round: (now?.round ?? 0) + 1 }));
    try {
      const { signUpId } = await startSignUp(ctx, {
        teamName,
        address,
        name,
        email,
        returnUrl: validReturnUrl ?? undefined,
        proof,
      });
      if (step.kind === 'code') setNotice(['signup.resent']);
      setCode('');
      setErrors({});
      setStep({ kind: 'code', signUpId });
    } catch (error) {
      const { status, code: reason } = refusalOf(error);
      // The solution ran out or was spent meanwhile: the next one is on its way, and sends this.
      if (status === 403 && reason?.startsWith('challenge') && reason !== 'challengeInvalid') {
        waiting.current = true;
        return;
      }
      // A refusal at a field of the first step sends the person back there.
      if (refusalOf(error).field) setStep({ kind: 'details' });
      fail(error);
    }
    setBusy(false);
  }

  function solved(proof: Proof) {
    if (waiting.current) void post(proof);
    else solution.current = proof;
  }

  async function confirmCode(event: FormEvent, signUpId: string) {
    event.preventDefault();
    setFailure(null);
    setNotice(null);
    const digits = code.replace(/[\s-]/g, '');
    if (!new RegExp(`^\\d{${SIGN_UP_CODE_DIGITS}}$`).test(digits)) {
      refuse({ code: ['signup.codeRequired'] });
      return;
    }
    setBusy(true);
    try {
      toPassword(await verifySignUp(ctx, signUpId, digits));
    } catch (error) {
      const { code: reason } = refusalOf(error);
      if (reason === 'wrongCode') refuse({ code: ['signup.wrongCode'] });
      else fail(error);
    }
    setBusy(false);
  }

  /** Make the team: with the new password, or (`passkey`) with none, a passkey registered next. */
  async function create(event: FormEvent, verified: SignUpVerified, method: 'password' | 'passkey') {
    event.preventDefault();
    setFailure(null);
    const found: FieldErrors = {
      ...(method === 'password' ? newPasswordErrors(password, confirm) : {}),
      address:
        retakeAddress && teamAddressProblem(address) ? problemText(teamAddressProblem(address)!) : undefined,
    };
    if (refuse(found)) return;
    setBusy(true);
    try {
      const team = { ticket: verified.ticket, teamName, address };
      await completeSignUp(
        ctx,
        method === 'password' ? { ...team, method, password, confirmPassword: confirm } : { ...team, method },
      );
    } catch (error) {
      setBusy(false);
      const { status, field } = refusalOf(error);
      if (status === 410) setStep({ kind: 'gone' });
      else if (field === 'address') {
        setRetakeAddress(true);
        fail(error);
      } else if (field === 'password') refuse({ password: passwordRefusal(error) });
      else if (field === 'confirmPassword') refuse({ confirm: ['common.passwordMismatch'] });
      else fail(error);
      return;
    }
    await beginSession(completing, setBusy);
    emit('acct-signed-in', { team: address, email: verified.email });
    if (method === 'passkey' && !(await addFirstPasskey())) {
      // The team and the session stand: the owner adds a passkey or sets a password there.
      noticesStore.getState().show(['signup.passkeyFailed'], 'Failure');
      router.navigate('/manage/security', { replace: true });
      return;
    }
    if (validReturnUrl) location.assign(validReturnUrl);
    else router.navigate(AFTER_SIGN_UP, { replace: true });
  }

  /** The browser's prompt for the owner's first passkey; whether one was added. */
  async function addFirstPasskey(): Promise<boolean> {
    const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date());
    try {
      const { registerFirstPasskey } = await import('./signup-passkey');
      await registerFirstPasskey(t('signup.passkeyName', { date }), language);
      return true;
    } catch {
      return false;
    }
  }

  const signInLink = (
    <Link to={withReturnUrl('/login/team', returnUrl)} className="link">
      {t('signup.haveTeam')}
    </Link>
  );
  const failureView = failure ? (
    <Alert tone="error" ref={failureAlert}>
      {say(failure)}
    </Alert>
  ) : null;
  // Shown as read, not as sent: the placeholder (and anything typed) is not percent-encoded.
  const teamUrl = `${location.origin}${router.href('/login/')}${address || '…'}`;
  const addressField = (
    <TextField
      label={t('signup.address')}
      name="team-address"
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={TEAM_ADDRESS_MAX}
      value={address}
      onChange={(event) => {
        setAddressTyped(true);
        setAddress(event.target.value.trim().toLowerCase());
      }}
      error={say(errors.address)}
      hint={
        availability.state === 'problem' && !errors.address
          ? say(problemText(availability.problem))
          : availability.state === 'free'
            ? t('signup.available', { url: teamUrl })
            : availability.state === 'checking'
              ? t('signup.checking')
              : t('signup.addressHint', { url: teamUrl })
      }
      inputRef={refs.address}
    />
  );

  const proofView = challenge ? (
    <ProofOfWork key={challenge.round} onSolved={solved} onFailed={() => setBusy(false)} />
  ) : null;

  if (step.kind === 'link') return <LoadingCard />;
  if (step.kind === 'gone') {
    return (
      <Card>
        <h1 className="title">{t('signup.goneTitle')}</h1>
        <Alert tone="error">{t('signup.gone')}</Alert>
        <button
          type="button"
          className="button block"
          part="button"
          onClick={() => {
            router.navigate(withReturnUrl(SIGN_UP_PATH, returnUrl), { replace: true });
            setStep({ kind: 'details' });
          }}
        >
          {t('signup.startAgain')}
        </button>
      </Card>
    );
  }

  if (step.kind === 'code') {
    return (
      <Card busy={busy}>
        <h1 className="title">{t('signup.codeTitle')}</h1>
        <p className="hint">{t('signup.codeIntro', { email: email.trim() })}</p>
        {failureView}
        {notice ? <Alert tone="success">{say(notice)}</Alert> : null}
        <BusyForm
          busy={busy}
          busyLabel={t('common.loading')}
          submitLabel={t('signup.verify')}
          onSubmit={(event) => void confirmCode(event, step.signUpId)}
        >
          <TextField
            label={t('login.join.code')}
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={SIGN_UP_CODE_DIGITS + 4}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={say(errors.code)}
            inputRef={refs.code}
          />
        </BusyForm>
        {proofView}
        <button type="button" className="link" disabled={busy} onClick={() => void send()}>
          {t('signup.resend')}
        </button>
        <button
          type="button"
          className="link"
          disabled={busy}
          onClick={() => {
            setFailure(null);
            setNotice(null);
            setStep({ kind: 'details' });
          }}
        >
          {t('signup.changeDetails')}
        </button>
      </Card>
    );
  }

  if (step.kind === 'password') {
    const { verified } = step;
    return (
      <Card busy={busy}>
        <h1 className="title">{t('signup.passwordTitle')}</h1>
        <p className="hint">{t('signup.passwordIntro', { email: verified.email, team: teamName })}</p>
        {failureView}
        <BusyForm
          busy={busy}
          busyLabel={t('signup.creating')}
          submitLabel={t('signup.create')}
          onSubmit={(event) => void create(event, verified, 'password')}
        >
          {/* For password managers: which account the new password belongs to. */}
          <input type="text" name="username" autoComplete="username" value={verified.email} readOnly hidden />
          {retakeAddress ? addressField : null}
          <NewPasswordFields
            {...newPassword}
            errors={errors}
            userInputs={[verified.email, verified.name, teamName, address]}
          />
        </BusyForm>
        {typeof PublicKeyCredential === 'undefined' ? null : (
          <>
            <div className="divider" role="separator">
              <span>{t('login.or')}</span>
            </div>
            <button
              type="button"
              className="button secondary block"
              part="button"
              disabled={busy}
              onClick={(event) => void create(event, verified, 'passkey')}
            >
              {t('signup.passkey')}
            </button>
          </>
        )}
      </Card>
    );
  }

  return (
    <Card busy={busy}>
      <h1 className="title">{t('signup.title')}</h1>
      <p className="hint">{t('signup.intro')}</p>
      {failureView}
      <BusyForm
        busy={busy}
        busyLabel={t('common.loading')}
        submitLabel={t('signup.send')}
        onSubmit={(event) => void send(event)}
      >
        <TextField
          label={t('signup.teamName')}
          name="organization"
          autoComplete="organization"
          limit={LIMITS.name}
          value={teamName}
          onChange={(event) => {
            startChallenge();
            setTeamName(event.target.value);
            if (!addressTyped) setAddress(suggestTeamAddress(event.target.value));
          }}
          error={say(errors.teamName)}
          inputRef={refs.teamName}
        />
        {addressField}
        <TextField
          label={t('invite.name')}
          name="name"
          autoComplete="name"
          limit={LIMITS.name}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={say(errors.name)}
          inputRef={refs.name}
        />
        <TextField
          label={t('signup.email')}
          name="email"
          type="email"
          autoComplete="email"
          maxLength={LIMITS.email}
          value={email}
          onChange={(event) => {
            startChallenge();
            setEmail(event.target.value);
          }}
          error={say(errors.email)}
          hint={t('signup.emailHint')}
          inputRef={refs.email}
        />
      </BusyForm>
      {proofView}
      {signInLink}
    </Card>
  );
}
