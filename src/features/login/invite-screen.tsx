import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { ApiError } from '../../api/client';
import { startProviderSignIn, type ProviderKind, type TeamPublic } from '../../api/endpoints';
import {
  acceptInvitation,
  errorField,
  goneReason,
  inspectInvitation,
  type Invitation,
  type InvitationGone,
} from '../../api/invitation';
import { charCount, LIMITS } from '../../contract/limits';
import { sessionStore } from '../../state/session';
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
import { lazyScreen } from '../../ui/lazy-screen';
import { Link, useRouter, useSearchParam } from '../../ui/router';
import { TextField } from '../../ui/text-field';
import { ProvidersThenForm } from './provider-buttons';
import { safeReturnUrl } from '../../contract/return-url';
import { signInPath } from './routes';
import { beginSession } from './sign-in-steps';
import type { AfterSignIn } from './signin-screen';
import { WithTexts } from './with-texts';
import { useSay, type Said } from '../../i18n/said';

/** The second step a team may require: its own chunk, as on the sign-in screen. */
const SecondStep = lazyScreen(() => import('./second-step'));

type Inspected =
  | { status: 'loading' }
  | { status: 'ready'; invitation: Invitation }
  | { status: 'gone'; reason: InvitationGone }
  | { status: 'failed' };

type FieldErrors = { name?: Said; password?: Said; confirm?: Said };

/**
 * The invitation link (`/login/{team}/invite?id=…&token=…`): a lazily loaded chunk with its texts in the
 * 'invite' part, so the sign-in page pays for none of it.
 */
export default function InviteScreen(props: { team: string; afterSignIn: AfterSignIn }) {
  return (
    <WithTexts part="invite">
      <Invite {...props} />
    </WithTexts>
  );
}

/**
 * First asks the server what the link is for (the team, the invited address, how one may join); then
 * the invitee joins with a name and password or with one of the team's providers, and is signed in —
 * after setting up the authenticator app when the team requires two-step sign-in. A link that no
 * longer works says why and offers only the sign-in screen. Joining signs this browser in as the new
 * member, so someone already signed in is told who they are and signs out first, never silently.
 */
function Invite({ team, afterSignIn }: { team: string; afterSignIn: AfterSignIn }) {
  const { t } = useTranslation();
  const say = useSay();
  const { issuer, language, emit } = useElement();
  const router = useRouter();
  const id = useSearchParam('id');
  const token = useSearchParam('token');
  const returnUrl = safeReturnUrl(useSearchParam('ReturnUrl'), location.origin);
  const [inspected, setInspected] = useState<Inspected>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [name, setName] = useState('');
  const newPassword = useNewPassword();
  const { password, confirm, passwordRef: passwordInput, confirmRef: confirmInput } = newPassword;
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const [joined, setJoined] = useState(false);
  // The team requires two-step sign-in: joined, and the authenticator app comes before the session.
  const [secondStep, setSecondStep] = useState(false);
  const loggedIn = useStore(sessionStore, (state) => state.loggedIn);
  const signedInAs = useStore(sessionStore, (state) => state.user?.email);
  // Set while our own join signs in, so the "someone is signed in" notice does not show for it.
  const completing = useRef(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const failureAlert = useRef<HTMLDivElement>(null);
  const focusLater = useFocusAfterRender();

  useEffect(() => {
    if (!id || !token) return;
    const controller = new AbortController();
    inspectInvitation(
      { issuer, language, signal: controller.signal },
      { teamName: team, invitationId: id, token },
    ).then(
      (invitation) => setInspected({ status: 'ready', invitation }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const reason = goneReason(error);
        setInspected(reason ? { status: 'gone', reason } : { status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [issuer, language, team, id, token, attempt]);

  const ready = inspected.status === 'ready';
  useEffect(() => {
    if (ready) nameInput.current?.focus();
  }, [ready]);

  /** Where the new member goes: the flow's return URL, else their account in the portal. */
  function destination(): string {
    return returnUrl ?? (afterSignIn === 'portal' ? '/manage' : '/');
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found: FieldErrors = {
      name: !name.trim()
        ? ['invite.nameRequired']
        : charCount(name) > LIMITS.name
          ? ['invite.nameInvalid']
          : undefined,
      ...newPasswordErrors(password, confirm),
    };
    setErrors(found);
    const first = found.name
      ? nameInput
      : found.password
        ? passwordInput
        : found.confirm
          ? confirmInput
          : null;
    if (first) {
      first.current?.focus();
      return;
    }
    setBusy(true);
    let answer;
    try {
      // A session check still under way may yet find someone signed in: they are asked first.
      await sessionStore.getState().settled();
      if (sessionStore.getState().loggedIn) {
        setBusy(false);
        return;
      }
      completing.current = true;
      answer = await acceptInvitation(
        { issuer, language },
        { teamName: team, invitationId: id!, token: token!, name, password, confirmPassword: confirm },
      );
    } catch (error) {
      completing.current = false;
      setBusy(false);
      failed(error);
      return;
    }
    if ('twoStep' in answer) {
      setBusy(false);
      setSecondStep(true);
      return;
    }
    await signedIn();
  }

  /** The new member's session has begun: tell the host and go on. */
  async function signedIn() {
    await beginSession(completing, setBusy);
    emit('acct-signed-in', { team, email: ready ? inspected.invitation.email : '' });
    if (afterSignIn === 'portal') router.navigate(destination(), { replace: true });
    else if (afterSignIn === 'redirect') location.assign(destination());
    else {
      setBusy(false);
      setJoined(true);
    }
  }

  /** A refused accept: at the field it concerns, the whole screen for a dead link, else one alert. */
  function failed(error: unknown) {
    const reason = goneReason(error);
    if (reason) {
      setInspected({ status: 'gone', reason });
      return;
    }
    const status = error instanceof ApiError ? error.status : 0;
    const field = errorField(error);
    if (status === 400 && field === 'name') {
      setErrors({ name: ['invite.nameInvalid'] });
      focusLater(nameInput);
    } else if (status === 400 && field === 'password') {
      setErrors({ password: passwordRefusal(error) });
      focusLater(passwordInput);
    } else if (status === 400 && field === 'confirmPassword') {
      setErrors({ confirm: ['common.passwordMismatch'] });
      focusLater(confirmInput);
    } else {
      const code = (error instanceof ApiError && (error.body as { code?: unknown } | null)?.code) || '';
      setFailure(
        code === 'seatLimit'
          ? ['invite.seatLimit']
          : code === 'alreadyMember'
            ? ['invite.alreadyMember']
            : status === 429
              ? ['login.tooMany']
              : ['common.failed'],
      );
      focusLater(failureAlert);
    }
  }

  /** Someone else is signed in on this browser: sign them out, then the invitation shows. */
  async function signOutFirst() {
    setFailure(null);
    setBusy(true);
    try {
      await sessionStore.getState().signOut();
    } catch {
      setFailure(['common.failed']);
      focusLater(failureAlert);
    }
    setBusy(false);
  }

  async function startProvider(provider: ProviderKind, label: string) {
    setFailure(null);
    setBusy(true);
    try {
      await sessionStore.getState().settled();
      if (sessionStore.getState().loggedIn) {
        setBusy(false);
        return;
      }
      const { location: start } = await startProviderSignIn({ issuer, language }, provider, {
        teamName: team,
        returnUrl: destination(),
        invitation: { id: id!, token: token! },
      });
      // The page leaves for the issuer, which sends it on to the provider: the screen stays busy.
      location.assign(start);
    } catch (error) {
      setBusy(false);
      const reason = goneReason(error);
      if (reason) setInspected({ status: 'gone', reason });
      else {
        setFailure(['login.providerFailed', { provider: label }]);
        focusLater(failureAlert);
      }
    }
  }

  const shown: Inspected = !id || !token ? { status: 'gone', reason: 'invalid' } : inspected;
  if (shown.status === 'loading') return <LoadingCard />;
  if (shown.status === 'failed') {
    return (
      <Card>
        <Alert tone="error">{t('common.failed')}</Alert>
        <button
          className="button block"
          part="button"
          type="button"
          onClick={() => {
            setInspected({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        >
          {t('common.retry')}
        </button>
      </Card>
    );
  }
  if (shown.status === 'gone') {
    return (
      <Card>
        <h1 className="title">{t('invite.goneTitle')}</h1>
        <Alert tone="error">{t(`invite.gone.${shown.reason}`)}</Alert>
        <Link to={signInPath(team)} className="link">
          {t('invite.signIn')}
        </Link>
      </Card>
    );
  }

  const { invitation } = shown;
  const teamName = invitation.team.displayName || invitation.team.name;
  if (joined) {
    return (
      <Card>
        <Alert tone="success">{t('login.signedIn', { email: invitation.email })}</Alert>
      </Card>
    );
  }
  if (secondStep) {
    return (
      <SecondStep
        team={team}
        teamLabel={teamName}
        methods={[]}
        enrol
        account={invitation.email}
        onSignedIn={() => void signedIn()}
        // The member exists now: a sign-in that ran out of time starts again on the sign-in screen.
        onRestart={() => router.navigate(signInPath(team))}
      />
    );
  }
  if (loggedIn && !completing.current) {
    return (
      <Card busy={busy}>
        <h1 className="title">{t('invite.title', { team: teamName })}</h1>
        {/* The session is known before its user: the notice waits for the address it names. */}
        {signedInAs ? (
          <Alert tone="info">
            <Trans
              t={t}
              i18nKey="invite.signedInAs"
              values={{ email: signedInAs }}
              components={{ email: <strong dir="ltr" style={{ display: 'inline-block' }} /> }}
            />
          </Alert>
        ) : null}
        {failure ? (
          <Alert tone="error" ref={failureAlert}>
            {say(failure)}
          </Alert>
        ) : null}
        <button
          className="button block"
          part="button"
          type="button"
          disabled={busy}
          onClick={() => void signOutFirst()}
        >
          {t('invite.signOutAndContinue')}
        </button>
      </Card>
    );
  }
  const { methods } = invitation;
  // The team's providers as the sign-in screen's buttons take them.
  const providers: TeamPublic = {
    name: invitation.team.name,
    displayName: teamName,
    teamDisabled: false,
    ...(methods.google ? { googleOptions: {} } : {}),
    ...(methods.azure ? { azureOptions: {} } : {}),
    ...(methods.auth0 ? { auth0Options: { displayName: invitation.auth0DisplayName ?? 'Auth0' } } : {}),
    ...(methods.apple ? { appleOptions: {} } : {}),
  };
  return (
    <Card busy={busy}>
      <h1 className="title">{t('invite.title', { team: teamName })}</h1>
      <p>
        <Trans
          t={t}
          i18nKey="invite.invitedAs"
          values={{ email: invitation.email }}
          // An address reads left to right in any sentence. As one box: Chromium splits a left-to-right
          // isolate over two lines of a right-to-left sentence with its hyphen on the wrong side.
          components={{ email: <strong dir="ltr" style={{ display: 'inline-block' }} /> }}
        />
      </p>
      <ProvidersThenForm
        failure={say(failure) ?? null}
        failureRef={failureAlert}
        details={providers}
        disabled={busy}
        onChoose={(kind, label) => void startProvider(kind, label)}
        form={
          methods.local ? (
            <BusyForm
              busy={busy}
              busyLabel={t('invite.joining')}
              submitLabel={t('invite.submit')}
              onSubmit={submit}
            >
              {/* For password managers: which account the new password belongs to. */}
              <input
                type="text"
                name="username"
                autoComplete="username"
                value={invitation.email}
                readOnly
                hidden
              />
              <TextField
                label={t('invite.name')}
                name="name"
                autoComplete="name"
                limit={LIMITS.name}
                value={name}
                onChange={(event) => setName(event.target.value)}
                error={say(errors.name)}
                inputRef={nameInput}
              />
              <NewPasswordFields
                {...newPassword}
                errors={errors}
                userInputs={[invitation.email, name, teamName]}
              />
            </BusyForm>
          ) : null
        }
      />
    </Card>
  );
}
