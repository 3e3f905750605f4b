import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { ApiError } from '../../api/client';
import {
  login,
  startProviderSignIn,
  startSsoSignIn,
  type LoginAnswer,
  type ProviderKind,
} from '../../api/endpoints';
import { LIMITS } from '../../contract/limits';
import { refusalOf } from '../../api/refusal';
import { originOf } from '../../api/url';
import { sessionStore } from '../../state/session';
import { Alert } from '../../ui/alert';
import { Card, LoadingCard } from '../../ui/card';
import { useElement } from '../../ui/element-context';
import { BusyForm } from '../../ui/busy-form';
import { lazyScreen } from '../../ui/lazy-screen';
import { Link, useRouter, useSearchParam } from '../../ui/router';
import { useFocusAfterRender } from '../../ui/focus';
import { TextField } from '../../ui/text-field';
import { ProofOfWork } from '../../ui/proof-of-work';
import type { Proof } from '../../contract/schemas/challenge';
import { ProvidersThenForm } from './provider-buttons';
import { safeReturnUrl } from '../../contract/return-url';
import { ForgotScreen, TeamScreen } from './lazy-screens';
import { withReturnUrl } from './routes';
import { beginSession } from './sign-in-steps';
import { useTeam } from './use-team';

/**
 * Spec §8: the Error query parameter's codes (and, beyond the spec, ProviderFailed: the provider round
 * trip did not complete — refused, cancelled or expired; InvitationGone: joining by invitation through a
 * provider, the invitation was used, revoked, resent or expired meanwhile; UserDisabled: an administrator
 * turned the account off). A locked or turned-off account reads as after a password.
 */
const ERROR_TEXTS: Record<string, string> = {
  UserLocked: 'login.locked',
  UserDisabled: 'login.disabled',
  UserAlreadyExists: 'login.errors.UserAlreadyExists',
  ForbiddenSignup: 'login.errors.ForbiddenSignup',
  InvalidTenant: 'login.errors.InvalidTenant',
  ProviderFailed: 'login.errors.ProviderFailed',
  InvitationGone: 'login.errors.InvitationGone',
  SsoFailed: 'login.errors.SsoFailed',
  SeatLimit: 'login.errors.SeatLimit',
  SsoRequired: 'login.ssoRequired',
};

/** The team's single sign-on route for the address's domain, if it has one. */
function ssoRouteOf(routes: ReadonlyArray<{ domain: string; required: boolean }> | undefined, email: string) {
  const at = email.lastIndexOf('@');
  if (!routes || at < 1) return undefined;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return routes.find((route) => route.domain === domain);
}

/** The second step and the passkey ceremony: their own chunks, loaded when a sign-in needs them. */
const SecondStep = lazyScreen(() => import('./second-step'));
/** Sign-in with a mailed code: its own chunk, loaded when asked for (or when the mail's link opens). */
const EmailCode = lazyScreen(() => import('./email-code'));
/** Screens of their own chunks, asked for on the way to the click on a link to them. */
const preloadForgot = () => void ForgotScreen.preload().catch(() => undefined);
const preloadTeam = () => void TeamScreen.preload().catch(() => undefined);
/** When the page has nothing more urgent to do (Safari has no idle callback: the next task). */
const whenIdle = () => new Promise((resolve) => (self.requestIdleCallback ?? setTimeout)(resolve));

/**
 * What happens once signed in: in the portal, go to ReturnUrl or the portal's `/`; an embedded element
 * with `redirect` goes to its return URL or the host site's `/`; otherwise it only tells its host.
 */
export type AfterSignIn = 'portal' | 'redirect' | 'event';

/**
 * Sign-in (spec §2, §4, §5, §8): the team's providers and, when it has local options, the e-mail and
 * password form. While the request runs the form is disabled under a loading overlay; 403 is the locked
 * message, other 4xx invalid credentials. Success resets and re-checks the session, dispatches
 * `acct-signed-in`, then goes to a valid ReturnUrl or `/`.
 */
export function SignInScreen({
  team,
  afterSignIn,
  emailLink = false,
}: {
  team: string;
  afterSignIn: AfterSignIn;
  /** The page a mailed sign-in link opens (`/login/{team}/emailCode?token=…`). */
  emailLink?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const say = useSay();
  const { issuer, emit, language } = useElement();
  const router = useRouter();
  const returnUrl = useSearchParam('ReturnUrl');
  const maxAge = useSearchParam('max_age');
  // An app's suggested e-mail (OpenID `login_hint`): only pre-fills the field, which stays editable.
  const loginHint = useSearchParam('login_hint');
  const errorCode = useSearchParam('Error');
  const twoStepQuery = useSearchParam('TwoStep');
  const linkToken = useSearchParam('token');
  const teamState = useTeam(issuer, team);
  const loggedIn = useStore(sessionStore, (state) => state.loggedIn);
  const user = useStore(sessionStore, (state) => state.user);

  const [email, setEmail] = useState(() => (loginHint ?? '').slice(0, LIMITS.email));
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: Said; password?: Said }>({});
  const [failure, setFailure] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  // The server asked for a solved proof-of-work challenge before it looks at the password.
  const [challenged, setChallenged] = useState(false);
  // At a domain that signs in through the team's single sign-on, the password is asked only on request.
  const [usePassword, setUsePassword] = useState(false);
  // A provider sign-in that stopped at the second step comes back with `TwoStep=verify|enrol`.
  const [twoStep, setTwoStep] = useState<Extract<LoginAnswer, { twoStep: unknown }>['twoStep'] | null>(() =>
    twoStepQuery === 'verify' || twoStepQuery === 'enrol'
      ? { methods: ['totp', 'recovery', 'passkey'], enrol: twoStepQuery === 'enrol' }
      : null,
  );
  // Sign-in with a mailed code: to the address typed, or from the mail's link.
  const [emailCode, setEmailCode] = useState<{ email: string | null; token: string | null } | null>(() =>
    emailLink && linkToken ? { email: null, token: linkToken } : null,
  );
  // Set while our own sign-in completes, so the "already signed in" redirect does not race it.
  const completing = useRef(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const failureAlert = useRef<HTMLDivElement>(null);
  const signedInAlert = useRef<HTMLDivElement>(null);
  const focusLater = useFocusAfterRender();
  // The autofill ceremony of the form on screen: its options call and the browser's request.
  const autofill = useRef<{ stop: AbortController; started: boolean } | null>(null);

  const validReturnUrl = safeReturnUrl(returnUrl, location.origin);
  const ready = teamState.status === 'ready' && !teamState.details.teamDisabled;
  // Passkey sign-in where the browser has it and the team has not turned it off.
  const passkeys = typeof PublicKeyCredential === 'function' && ready && !!teamState.details.passkeyOptions;
  const local = ready && !twoStep && !emailCode && !!teamState.details.localOptions;
  const ssoRoute = ready ? ssoRouteOf(teamState.details.ssoDomains, email) : undefined;
  const sso = !!ssoRoute && !(local && usePassword);
  // The mailed code where the team offers it, for an address that does not sign in through single sign-on.
  const codeOffered = ready && !!teamState.details.emailCodeOptions && !sso;

  // A pre-filled e-mail leaves the password to type.
  useEffect(() => {
    if (ready && !twoStep && !emailCode) (loginHint ? passwordInput : emailInput).current?.focus();
    // Once the form shows: the hint is only the first value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, twoStep, emailCode]);

  // Passkeys in the e-mail field's autofill list where the browser offers that (conditional mediation),
  // asked once the form shows and the page is idle, so it never delays the form; the ceremony waits for
  // the user's choice and ends with the screen, or when the password is sent.
  useEffect(() => {
    if (!local || !passkeys) return;
    const current = { stop: new AbortController(), started: false };
    autofill.current = current;
    void whenIdle().then(() => passkey(current));
    return () => stopAutofill(current);
    // Once per form: the ceremony outlives renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [local, passkeys, issuer, team]);

  /**
   * End the autofill ceremony. Before a password sign-in too: its options call, sent once the sign-in
   * has changed the anti-forgery cookie, would carry the old token and be refused.
   */
  function stopAutofill(current = autofill.current) {
    if (!current || current.stop.signal.aborted) return;
    current.stop.abort();
    // Only a started ceremony has its chunk in: nothing to load to end nothing.
    if (current.started) void import('./passkey').then((module) => module.cancelPasskey());
  }

  // Spec §4: an already signed-in user on the sign-in screen is sent to '/' — unless the screen is
  // asked to sign them in again (`max_age`: an app through the OpenID Provider wants a fresh sign-in),
  // or a second step is on screen: its session may be known before the step is done (a new member's
  // recovery codes are shown once, and a session check then must not take them away).
  const reauthenticate = maxAge !== null;
  const secondStep = twoStep !== null;
  useEffect(() => {
    if (loggedIn && !reauthenticate && !completing.current && !secondStep && afterSignIn === 'portal')
      router.navigate('/', { replace: true });
  }, [loggedIn, reauthenticate, secondStep, afterSignIn, router]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (sso) return startSso();
    // A team without passwords that mails codes: the form's one button asks for the code.
    if (teamState.status === 'ready' && !teamState.details.localOptions && codeOffered)
      return startEmailCode();
    // A team that signs in only through single sign-on: the address must be at one of its domains.
    if (teamState.status === 'ready' && !teamState.details.localOptions) {
      setErrors({ email: [email.trim() ? 'login.sso.noRoute' : 'login.emailRequired'] });
      emailInput.current?.focus();
      return;
    }
    const missing = {
      email: email.trim() ? undefined : (['login.emailRequired'] as const),
      password: password ? undefined : (['login.passwordRequired'] as const),
    };
    setErrors(missing);
    if (missing.email || missing.password) {
      (missing.email ? emailInput : passwordInput).current?.focus();
      return;
    }
    stopAutofill();
    setBusy(true);
    await sendPassword();
  }

  /**
   * Send the password (with a solved challenge once the server asks for one: the challenge element
   * solves it and sends again, nothing for the person to do).
   */
  async function sendPassword(proof?: Proof) {
    setChallenged(false);
    completing.current = true;
    let answer;
    try {
      // The page's first session check may still wait for a connection: sent once the sign-in has
      // changed the anti-forgery cookie, it would carry the old token and be refused.
      await sessionStore.getState().settled();
      answer = await login({ issuer }, { teamName: team, email: email.trim(), password, proof });
    } catch (error) {
      completing.current = false;
      const status = error instanceof ApiError ? error.status : 0;
      const { code } = refusalOf(error);
      // Asked for a solved challenge (or the one sent was spent or ran out): solve one and send again.
      if (status === 403 && code?.startsWith('challenge') && !(proof && code === 'challengeInvalid')) {
        setChallenged(true);
        return;
      }
      setBusy(false);
      if (status === 403)
        setFailure([
          code === 'disabled'
            ? 'login.disabled'
            : code === 'ssoRequired'
              ? 'login.ssoRequired'
              : 'login.locked',
        ]);
      else if (status === 429) setFailure(['login.tooMany']);
      else if (status >= 400 && status < 500) setFailure(['login.invalidCredentials']);
      else setFailure(['common.failed']);
      // The address may sign in only through single sign-on, as the message says: the form goes back
      // to it (else only a reload would bring its button back).
      const ssoOnly = status === 403 && code === 'ssoRequired';
      if (ssoOnly) setUsePassword(false);
      focusLater(ssoOnly ? emailInput : passwordInput);
      return;
    }
    if ('twoStep' in answer) {
      completing.current = false;
      setBusy(false);
      setPassword('');
      setTwoStep(answer.twoStep);
      return;
    }
    await signedIn();
  }

  /** The session has begun (by password, passkey or second step): tell the host and go on. */
  async function signedIn() {
    await beginSession(completing, setBusy);
    const address = sessionStore.getState().user?.email ?? email.trim();
    emit('acct-signed-in', { team, email: address.toLowerCase() });
    if (afterSignIn === 'portal' && !validReturnUrl) router.navigate('/', { replace: true });
    else if (afterSignIn !== 'event') location.assign(validReturnUrl ?? '/');
    else {
      setBusy(false);
      focusLater(signedInAlert);
    }
  }

  /**
   * Sign in with a passkey: from the button, or — with `autofill` — from the e-mail field's autofill
   * list. That ceremony waits for the user's choice; until they choose, its end says nothing (the screen
   * ends it for the button, the password or when it goes, and the button still works).
   */
  async function passkey(autofill?: { stop: AbortController; started: boolean }) {
    const live = () => !autofill?.stop.signal.aborted;
    let chosen = false;
    const choose = () => {
      chosen = true;
      setFailure(null);
      setBusy(true);
    };
    if (!autofill) choose();
    let module;
    try {
      if (!live()) return;
      module = await import('./passkey');
    } catch {
      // The chunk did not come (offline): the button says so; the autofill simply is not offered.
      if (!autofill) {
        setBusy(false);
        setFailure(['common.failed']);
        focusLater(failureAlert);
      }
      return;
    }
    if (!live()) return;
    if (autofill) autofill.started = true;
    const outcome = await module.passkeySignIn({ issuer, language, signal: autofill?.stop.signal }, team, {
      autofill: !!autofill,
      onChosen: choose,
    });
    if (outcome === 'signedIn') return signedIn();
    if (!chosen || !live()) return;
    setBusy(false);
    const label = teamState.status === 'ready' ? teamState.details.displayName : team;
    setFailure([await module.passkeyMessage(i18n, outcome), { team: label }]);
    focusLater(failureAlert);
  }

  // Where a provider sign-in comes back to: in the portal its ReturnUrl; embedded, the host page (or its
  // return-url) — as a full address when the page is not on the issuer's origin.
  function providerReturnUrl(): string | undefined {
    const target =
      afterSignIn === 'portal'
        ? validReturnUrl
        : (validReturnUrl ?? `${location.pathname}${location.search}`);
    if (!target) return undefined;
    return originOf(issuer, location.href) === location.origin
      ? target
      : new URL(target, location.origin).href;
  }

  async function startProvider(provider: ProviderKind, label: string) {
    setFailure(null);
    setBusy(true);
    try {
      const { location: start } = await startProviderSignIn({ issuer }, provider, {
        teamName: team,
        returnUrl: providerReturnUrl(),
        maxAge: maxAge ?? undefined,
      });
      // The page leaves for the issuer, which sends it on to the provider: the screen stays busy.
      location.assign(start);
    } catch {
      setBusy(false);
      setFailure(['login.providerFailed', { provider: label }]);
      focusLater(failureAlert);
    }
  }

  /** Mail a code to the address typed: the code screen asks for it and takes it. */
  function startEmailCode() {
    setFailure(null);
    if (!leaveForm()) return;
    setEmailCode({ email: email.trim(), token: null });
  }

  /**
   * Before the address alone leads on (single sign-on, a mailed code): it must be there — said at the
   * field — and the autofill ceremony ends. Whether it may go on.
   */
  function leaveForm(): boolean {
    if (!email.trim()) {
      setErrors({ email: ['login.emailRequired'] });
      emailInput.current?.focus();
      return false;
    }
    setErrors({});
    stopAutofill();
    return true;
  }

  /** Sign in through the team's single sign-on for the address's domain: the page leaves for it. */
  async function startSso() {
    if (!leaveForm()) return;
    setBusy(true);
    try {
      const { location: start } = await startSsoSignIn(
        { issuer },
        { teamName: team, email: email.trim(), returnUrl: providerReturnUrl(), maxAge: maxAge ?? undefined },
      );
      location.assign(start);
    } catch {
      setBusy(false);
      setFailure(['login.sso.failed']);
      focusLater(failureAlert);
    }
  }

  // Embedded, a signed-in user sees who they are (once our own sign-in, if any, has finished).
  if (loggedIn && afterSignIn !== 'portal' && !busy) {
    return (
      <Card>
        <Alert tone="success" ref={signedInAlert}>
          {t('login.signedIn', { email: user?.email ?? email })}
        </Alert>
      </Card>
    );
  }
  if (teamState.status === 'loading') return <LoadingCard />;
  if (teamState.status !== 'ready' || teamState.details.teamDisabled) {
    const message =
      teamState.status === 'missing'
        ? t('login.team.notFound')
        : teamState.status === 'ready'
          ? t('login.team.disabled')
          : t('common.failed');
    return (
      <Card>
        <Alert tone="error">{message}</Alert>
        <Link
          to={withReturnUrl('/login/team', returnUrl, { loginHint, maxAge })}
          className="link"
          onPointerEnter={preloadTeam}
          onFocus={preloadTeam}
        >
          {t('login.changeTeam')}
        </Link>
      </Card>
    );
  }

  if (twoStep) {
    return (
      <SecondStep
        team={team}
        teamLabel={teamState.details.displayName ?? team}
        methods={twoStep.methods}
        enrol={twoStep.enrol}
        account={email.trim() || (teamState.details.displayName ?? team)}
        onSignedIn={() => void signedIn()}
        onRestart={() => setTwoStep(null)}
      />
    );
  }

  if (emailCode) {
    return (
      <EmailCode
        team={team}
        teamLabel={teamState.details.displayName ?? team}
        email={emailCode.email}
        token={emailCode.token}
        returnUrl={providerReturnUrl() ?? null}
        onSignedIn={() => void signedIn()}
        onTwoStep={(next) => {
          setEmailCode(null);
          setTwoStep(next);
        }}
        onRestart={() => {
          setEmailCode(null);
          // The link's page goes back to the team's sign-in screen.
          if (emailLink) router.navigate(withReturnUrl('../', returnUrl), { replace: true });
        }}
      />
    );
  }

  const { details } = teamState;
  const errorKey = errorCode && Object.hasOwn(ERROR_TEXTS, errorCode) ? ERROR_TEXTS[errorCode] : undefined;
  const errorMessage = errorKey ? t(errorKey) : null;
  return (
    <Card busy={busy}>
      <h1 className="title">{t('login.signIn.title', { team: details.displayName ?? team })}</h1>
      {errorMessage ? <Alert tone="error">{errorMessage}</Alert> : null}
      <ProvidersThenForm
        failure={say(failure) ?? null}
        failureRef={failureAlert}
        details={details}
        disabled={busy}
        onChoose={(kind, label) => void startProvider(kind, label)}
        extra={
          passkeys ? (
            <button
              type="button"
              className="button secondary block"
              part="button"
              disabled={busy}
              onClick={() => {
                // The button's ceremony replaces the autofill's: one not yet started must not start
                // after it and cancel it (a newer ceremony cancels the one waiting).
                autofill.current?.stop.abort();
                void passkey();
              }}
            >
              {t('login.passkey')}
            </button>
          ) : null
        }
        form={
          details.localOptions || details.ssoDomains || details.emailCodeOptions ? (
            <>
              <BusyForm
                busy={busy}
                busyLabel={t('login.signingIn')}
                submitLabel={
                  sso
                    ? t('login.sso.continue')
                    : !details.localOptions && codeOffered
                      ? t('login.emailCodeButton')
                      : t('login.continue')
                }
                onSubmit={submit}
              >
                <TextField
                  label={t('login.email')}
                  name="email"
                  type="email"
                  autoComplete="username webauthn"
                  autoCapitalize="none"
                  spellCheck={false}
                  maxLength={LIMITS.email}
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                  error={say(errors.email)}
                  // Said once the address's domain is known; the button's name changes with it.
                  hint={sso ? t('login.sso.note', { domain: ssoRoute.domain }) : undefined}
                  inputRef={emailInput}
                />
                {sso || !details.localOptions ? null : (
                  <TextField
                    label={t('login.password')}
                    name="password"
                    type="password"
                    autoComplete="current-password"
                    maxLength={LIMITS.password}
                    value={password}
                    onChange={(event) => setPassword(event.target.value)}
                    error={say(errors.password)}
                    inputRef={passwordInput}
                  />
                )}
              </BusyForm>
              {challenged ? (
                <ProofOfWork
                  onSolved={(proof) => {
                    setBusy(true);
                    void sendPassword(proof);
                  }}
                  onFailed={() => setBusy(false)}
                />
              ) : null}
              {codeOffered && details.localOptions ? (
                <button
                  type="button"
                  className="button secondary block"
                  part="button"
                  disabled={busy}
                  onClick={startEmailCode}
                >
                  {t('login.emailCodeButton')}
                </button>
              ) : null}
              {sso && details.localOptions ? (
                <button
                  type="button"
                  className="link"
                  disabled={busy}
                  onClick={() => {
                    setUsePassword(true);
                    focusLater(passwordInput);
                  }}
                >
                  {t(ssoRoute.required ? 'login.sso.ownerPassword' : 'login.sso.usePassword')}
                </button>
              ) : null}
              {details.localOptions ? (
                <Link
                  to={withReturnUrl('forgotPassword', returnUrl)}
                  className="link"
                  disabled={busy}
                  onPointerEnter={preloadForgot}
                  onFocus={preloadForgot}
                >
                  {t('login.forgotPassword')}
                </Link>
              ) : null}
            </>
          ) : null
        }
      />
      <Link
        to={withReturnUrl('/login/team', returnUrl, { loginHint, maxAge })}
        className="link"
        disabled={busy}
        onPointerEnter={preloadTeam}
        onFocus={preloadTeam}
      >
        {t('login.changeTeam')}
      </Link>
    </Card>
  );
}
