import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { addTextPart } from '../../i18n/parts';
import { useStore } from 'zustand';
import { ApiError } from '../../api/client';
import { findJoinTeam, findSsoTeam, getTeamPublic } from '../../api/endpoints';
import { LIMITS } from '../../contract/limits';
import { readDefaultTeam, saveDefaultTeam } from '../../state/preferences';
import { sessionStore } from '../../state/session';
import { Alert } from '../../ui/alert';
import { Card } from '../../ui/card';
import { useElement } from '../../ui/element-context';
import { BusyForm } from '../../ui/busy-form';
import { useFocusAfterRender } from '../../ui/focus';
import { useRouter, useSearchParam } from '../../ui/router';
import { lazyScreen } from '../../ui/lazy-screen';
import { TextField } from '../../ui/text-field';
import { signInPath, SIGN_UP_PATH, withReturnUrl } from './routes';
import { teamNotFound } from './use-team';

/** Asking to join a team from its domain: its own chunk, loaded when it is offered. */
const JoinRequest = lazyScreen(() => import('./join-request'));

/** A team a work address may ask to join, offered under the field. */
interface Joinable {
  name: string;
  displayName: string;
  email: string;
}

/**
 * Team entry (spec §2, §4 team step, §5): one required field; the name is trimmed and lower-cased, looked
 * up, and on success remembered and the sign-in screen opened with ReturnUrl (login_hint, max_age) kept.
 */
export function TeamScreen() {
  const { t, i18n } = useTranslation();
  const say = useSay();
  const { issuer, settings } = useElement();
  const router = useRouter();
  const returnUrl = useSearchParam('ReturnUrl');
  const request = { loginHint: useSearchParam('login_hint'), maxAge: useSearchParam('max_age') };
  // A session that ended elsewhere (or with the account) lands here: say so, and keep its team.
  const ended = useStore(sessionStore, (state) => state.ended);
  const [team, setTeam] = useState(() => sessionStore.getState().ended?.team ?? readDefaultTeam() ?? '');
  const [fieldError, setFieldError] = useState<Said | null>(null);
  const [failure, setFailure] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const focusLater = useFocusAfterRender();
  const [joinable, setJoinable] = useState<Joinable | null>(null);
  const [joining, setJoining] = useState(false);

  useEffect(() => {
    input.current?.focus();
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const name = team.trim().toLowerCase();
    setFailure(null);
    setJoinable(null);
    if (!name) {
      setFieldError(['login.team.required']);
      input.current?.focus();
      return;
    }
    setFieldError(null);
    setBusy(true);
    // A work e-mail instead of a team's name: the team its domain signs in to through single sign-on.
    if (name.includes('@')) return findByEmail(name);
    try {
      const details = await getTeamPublic({ issuer }, name);
      if (details.teamDisabled) {
        setFieldError(['login.team.disabled']);
      } else {
        saveDefaultTeam(name);
        router.navigate(withReturnUrl(signInPath(name), returnUrl, request));
        return;
      }
    } catch (error) {
      if (teamNotFound(error)) setFieldError(['login.team.notFound']);
      else setFailure(['common.failed']);
    }
    setBusy(false);
    focusLater(input);
  }

  async function findByEmail(email: string) {
    const domain = email.slice(email.lastIndexOf('@') + 1);
    try {
      const found = await findSsoTeam({ issuer }, domain);
      saveDefaultTeam(found.name);
      router.navigate(withReturnUrl(signInPath(found.name), returnUrl, { ...request, loginHint: email }));
      return;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) await offerJoining(email, domain);
      else setFailure(['common.failed']);
    }
    setBusy(false);
    focusLater(input);
  }

  /** No single sign-on for the domain: the team that has it verified may be asked to let them join. */
  async function offerJoining(email: string, domain: string) {
    try {
      const found = await findJoinTeam({ issuer }, domain);
      void JoinRequest.preload().catch(() => undefined);
      void addTextPart(i18n, 'join').catch(() => undefined);
      setJoinable({ ...found, email });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setFieldError(['login.team.noSsoTeam']);
      else setFailure(['common.failed']);
    }
  }

  if (joining && joinable)
    return (
      <JoinRequest
        team={joinable}
        email={joinable.email}
        onBack={() => {
          setJoining(false);
          focusLater(input);
        }}
      />
    );

  return (
    <Card busy={busy}>
      <h1 className="title">{t('login.team.title')}</h1>
      {ended ? <Alert tone="info">{t('login.sessionEnded')}</Alert> : null}
      {failure ? <Alert tone="error">{say(failure)}</Alert> : null}
      <BusyForm
        busy={busy}
        busyLabel={t('common.loading')}
        submitLabel={t('login.continue')}
        onSubmit={submit}
      >
        <TextField
          label={t('login.team.label')}
          name="team"
          autoComplete="organization"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={LIMITS.teamName}
          value={team}
          onChange={(event) => setTeam(event.target.value)}
          hint={t('login.team.hint')}
          error={say(fieldError)}
          inputRef={input}
        />
      </BusyForm>
      {joinable ? (
        <div className="stack" role="status">
          <p>{t('login.join.offer', { team: joinable.displayName })}</p>
          <button
            type="button"
            className="button secondary block"
            part="button"
            onClick={() => setJoining(true)}
          >
            {t('login.join.ask', { team: joinable.displayName })}
          </button>
        </div>
      ) : null}
      {settings.signUpUrl ? (
        <>
          <div className="divider" role="separator">
            <span>{t('login.or')}</span>
          </div>
          <a
            className="button secondary block"
            part="button"
            // The portal's own sign-up keeps the flow's ReturnUrl: a newcomer from an app's sign-in
            // goes back to that app once their team is made.
            href={
              settings.signUpUrl === SIGN_UP_PATH
                ? withReturnUrl(SIGN_UP_PATH, returnUrl)
                : settings.signUpUrl
            }
          >
            {t('login.register')}
          </a>
        </>
      ) : null}
    </Card>
  );
}

export default TeamScreen;
