import { useCallback, useEffect, useId, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { getInvitations, getTeam, setLoginOptions, type AuditKind, type TeamAdmin } from '../../api/team';
import type { ApiContext } from '../../api/client';
import { listJoinRequests } from '../../api/join-requests';
import { signInMethodName } from '../../i18n/names';
import { WithTextPart } from '../../i18n/parts';
import { noticesStore } from '../../state/notices';
import { Alert } from '../../ui/alert';
import { useElement } from '../../ui/element-context';
import { LimitBar } from '../../ui/limit-bar';
import { Link, useRouter, useSearchParam } from '../../ui/router';
import { ScreenLoading, Spinner } from '../../ui/spinner';
import { Failed } from '../../ui/failed';
import { ADMIN_TEXTS, Confirm } from './admin-kit';
import { AuditEvents, useAuditPages } from './audit-pages';
import { storageText } from './format';
import { refusalOf } from '../../api/refusal';
import { AUDIT_KINDS } from '../../contract/team-rules';
import { timeAgo, useNow } from '../../ui/time';
import { useCall } from '../../ui/use-call';
import { InvitationList } from './invitation-list';
import { JoinRequestList } from './join-request-list';
import { Checklist } from './checklist';
import { InviteDialog } from './invite-dialog';
import { SeatLimitDialog } from './seat-limit-dialog';

type Loaded<T> = T | null | 'failed' | 'forbidden';
/** A sign-in method, or the rule that every member signs in in two steps. */
type Option = keyof TeamAdmin['loginOptions'];
/** The sign-in methods among the team's login options (the others are settings, not methods). */
type Method = Exclude<Option, 'requireTwoStep' | 'passkeys' | 'emailCode'>;

/** A list's load: the value, or whether it failed (a 403: the caller is no team admin, any more). */
function useLoad<T>(load: (ctx: ApiContext) => Promise<T>): [Loaded<T>, () => void, (value: T) => void] {
  const call = useCall();
  const [state, setState] = useState<Loaded<T>>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    call(load).then(
      (value) => live && setState(value),
      (error) => live && setState(refusalOf(error).status === 403 ? 'forbidden' : 'failed'),
    );
    return () => {
      live = false;
    };
  }, [call, load, round]);
  return [state, useCallback(() => setRound((n) => n + 1), []), setState];
}

function Toggle({
  label,
  on,
  disabled,
  hint,
  onChange,
}: {
  label: string;
  on: boolean;
  disabled: boolean;
  hint?: string;
  onChange(on: boolean): void;
}) {
  const hintId = useId();
  return (
    <div className="toggle">
      <span className="toggle-label">
        <span>{label}</span>
        {hint ? (
          <span className="hint" id={hintId}>
            {hint}
          </span>
        ) : null}
      </span>
      <button
        type="button"
        role="switch"
        aria-label={label}
        aria-checked={on}
        aria-describedby={hint ? hintId : undefined}
        disabled={disabled}
        onClick={() => onChange(!on)}
        className="switch"
      >
        <span aria-hidden="true" />
      </button>
    </div>
  );
}

const METHODS: Method[] = ['local', 'google', 'azure', 'apple', 'auth0'];

/**
 * Login options: the team's real sign-in methods (never none of them), passkey sign-in, and whether
 * every member must sign in in two steps; saved on each change. Each method has the name the sign-in
 * page's buttons give it.
 */
function LoginOptions({
  team,
  onSaved,
  headingRef,
}: {
  team: TeamAdmin;
  onSaved(team: TeamAdmin): void;
  /** Where the checklist's "choose how members sign in" takes focus. */
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const call = useCall();
  // The switch shows the change at once; it goes back if the server refuses it.
  const [pending, setPending] = useState<Partial<Record<Option, boolean>>>({});
  const [error, setError] = useState<Said | null>(null);
  // Requiring two-step sign-in asks first, saying whom it concerns.
  const [askTwoStep, setAskTwoStep] = useState(false);
  const without = team.membersWithoutTwoStep;

  async function change(method: Option, on: boolean) {
    setError(null);
    setPending((now) => ({ ...now, [method]: on }));
    try {
      onSaved(await call((ctx) => setLoginOptions(ctx, { [method]: on })));
    } catch (failure) {
      const { code } = refusalOf(failure);
      setError(
        code === 'lastMethod'
          ? ['team.lastMethod']
          : code === 'notConfigured'
            ? ['team.notConfigured']
            : ['team.optionFailed'],
      );
    }
    setPending((now) => {
      const rest = { ...now };
      delete rest[method];
      return rest;
    });
  }

  return (
    <section className="panel" part="card" aria-labelledby="options-title">
      <h2 className="panel-title" id="options-title" ref={headingRef} tabIndex={-1}>
        {t('team.loginOptions')}
      </h2>
      <div className="toggles">
        {METHODS.filter((method) => method !== 'auth0' || team.configured.auth0).map((method) => {
          const on = pending[method] ?? team.loginOptions[method];
          const configured = method === 'local' || team.configured[method];
          return (
            <Toggle
              key={method}
              label={signInMethodName(t, method, team.auth0DisplayName)}
              on={on}
              // A provider the team has no configuration for cannot be turned on (it can be turned off).
              disabled={method in pending || (!configured && !on)}
              hint={configured ? undefined : t('team.notConfigured')}
              onChange={(next) => void change(method, next)}
            />
          );
        })}
        <Toggle
          label={signInMethodName(t, 'passkeys', team.auth0DisplayName)}
          on={pending.passkeys ?? team.loginOptions.passkeys}
          disabled={'passkeys' in pending}
          hint={t('team.passkeysHint')}
          onChange={(next) => void change('passkeys', next)}
        />
        <Toggle
          label={t('team.options.emailCode')}
          on={pending.emailCode ?? team.loginOptions.emailCode}
          disabled={'emailCode' in pending}
          hint={t('team.emailCodeHint')}
          onChange={(next) => void change('emailCode', next)}
        />
        <Toggle
          label={t('team.options.requireTwoStep')}
          on={pending.requireTwoStep ?? team.loginOptions.requireTwoStep}
          disabled={'requireTwoStep' in pending}
          hint={t('team.requireTwoStepHint')}
          onChange={(next) => (next ? setAskTwoStep(true) : void change('requireTwoStep', false))}
        />
      </div>
      {error ? <Alert tone="error">{say(error)}</Alert> : null}
      <Confirm
        open={askTwoStep}
        title={t('team.twoStepConfirm.title')}
        text={
          without === 0
            ? t('team.twoStepConfirm.textNone')
            : t('team.twoStepConfirm.text', { count: without })
        }
        action={t('team.twoStepConfirm.confirm')}
        onConfirm={async () => {
          setAskTwoStep(false);
          await change('requireTwoStep', true);
        }}
        onClose={() => setAskTwoStep(false)}
      />
    </section>
  );
}

function Support({ support }: { support: TeamAdmin['support'] }) {
  const { t } = useTranslation();
  const none = <span className="hint">{t('team.notSet')}</span>;
  return (
    <section className="panel" part="card" aria-labelledby="support-title">
      <h2 className="panel-title" id="support-title">
        {t('team.support')}
      </h2>
      <dl className="facts">
        <div>
          <dt>{t('team.manager')}</dt>
          <dd>{support.name ?? none}</dd>
        </div>
        <div>
          <dt>{t('team.managerEmail')}</dt>
          <dd>{support.email ? <a href={`mailto:${support.email}`}>{support.email}</a> : none}</dd>
        </div>
        <div>
          <dt>{t('team.phone')}</dt>
          <dd>
            {support.phone ? (
              <a href={`tel:${support.phone.replace(/[^\d+]/g, '')}`} dir="ltr">
                {/* A phone number reads left to right, also in Arabic ("+44 20…", not "…20 44+"). */}
                {support.phone}
              </a>
            ) : (
              none
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** The admin actions a page of the trail shows. */
const AUDIT_PAGE = 10;

/**
 * The admin actions, newest first, each a sentence (who did what to whom), ten at a time with older
 * ones on demand, of one kind when the admin picks one. `round` changes when something was just done.
 */
function Activity({ round, now }: { round: number; now: number }) {
  const { t } = useTranslation();
  const { language } = useElement();
  const [kind, setKind] = useState<AuditKind | ''>('');
  const pages = useAuditPages({ kind: kind || null }, AUDIT_PAGE, round);

  return (
    <section className="panel" part="card" aria-labelledby="activity-title">
      <div className="panel-head">
        <h2 className="panel-title" id="activity-title">
          {t('team.activity')}
        </h2>
        <label className="audit-filter">
          <span>{t('team.logFilter.filter')}</span>
          <select value={kind} onChange={(event) => setKind(event.target.value as AuditKind | '')}>
            <option value="">{t('team.logFilter.all')}</option>
            {AUDIT_KINDS.map((value) => (
              <option key={value} value={value}>
                {t(`team.logFilter.${value}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <AuditEvents
        pages={pages}
        empty={kind ? t('team.logFilter.none') : t('team.noActivity')}
        moreLabel={t('team.logFilter.more')}
        className="invites audit"
        when={(event) => (
          <time className="hint" dateTime={event.at}>
            {timeAgo(event.at, now, language)}
          </time>
        )}
      />
      <Link to="/manage/team/events">{t('team.seeAll')}</Link>
    </section>
  );
}

function TeamScreen() {
  const { t } = useTranslation();
  const { language } = useElement();
  const router = useRouter();
  const now = useNow();
  const [team, reloadTeam, setTeam] = useLoad(getTeam);
  const [invitations, reloadInvitations] = useLoad(getInvitations);
  const [joinRequests, reloadJoinRequests] = useLoad(listJoinRequests);
  const [auditRound, setAuditRound] = useState(0);
  const reloadAudit = useCallback(() => setAuditRound((n) => n + 1), []);
  const [limitOpen, setLimitOpen] = useState(false);
  // The users screen links to /manage/team?invite=1: open the invitation at once.
  const [inviting, setInviting] = useState(useSearchParam('invite') === '1');
  const inviteButton = useRef<HTMLButtonElement>(null);
  const optionsHeading = useRef<HTMLHeadingElement>(null);

  // Something changed: the seats, the invitations and the audit trail follow.
  const changed = useCallback(() => {
    reloadTeam();
    reloadInvitations();
    reloadJoinRequests();
    reloadAudit();
  }, [reloadTeam, reloadInvitations, reloadJoinRequests, reloadAudit]);

  function closeInvite() {
    setInviting(false);
    if (router.location.search) router.navigate(router.location.path, { replace: true });
  }

  if (team === null) return <ScreenLoading />;
  if (team === 'forbidden')
    return (
      <section className="panel" part="card">
        <p>{t('manage.needAdmin')}</p>
      </section>
    );
  if (team === 'failed') return <Failed retry={reloadTeam} />;

  const { seats, storage } = team;
  const storageParts = storageText(storage.usedBytes, storage.limitBytes, language);
  const percent = (used: number, limit: number) => (limit > 0 ? Math.round((used / limit) * 100) : 100);
  const ownerHint = 'owner-only-hint';
  return (
    <>
      {team.checklist ? (
        <Checklist
          onInvite={() => setInviting(true)}
          onMethods={() => {
            optionsHeading.current?.scrollIntoView({ block: 'start' });
            optionsHeading.current?.focus();
          }}
          onDismissed={() => {
            const { checklist: _dismissed, ...rest } = team;
            setTeam(rest);
          }}
        />
      ) : null}
      <section className="panel" part="card" aria-labelledby="team-title">
        <h2 className="panel-title" id="team-title">
          {t('team.title')}
        </h2>
        <LimitBar
          value={percent(seats.used, seats.limit)}
          label={t('team.usersLabel')}
          text={t('team.users', { used: seats.used, limit: seats.limit })}
        />
        <div className="with-action">
          <button
            type="button"
            className="button secondary small"
            part="button"
            disabled={!team.callerIsOwner}
            aria-describedby={team.callerIsOwner ? undefined : ownerHint}
            onClick={() => setLimitOpen(true)}
          >
            {t('team.manageLimit')}
          </button>
          {team.callerIsOwner ? null : (
            <span className="hint" id={ownerHint}>
              {t('team.ownerOnly')}
            </span>
          )}
        </div>
        <LimitBar
          value={percent(storage.usedBytes, storage.limitBytes)}
          label={t('team.storageLabel')}
          text={t('team.storage', storageParts)}
        />
      </section>
      <section className="panel" part="card" aria-labelledby="join-requests-title">
        <div className="panel-head">
          <h2 className="panel-title" id="join-requests-title">
            {t('team.joinRequests.title')}{' '}
            {Array.isArray(joinRequests) && joinRequests.length > 0 ? (
              <span className="badge">
                <span aria-hidden="true">{joinRequests.length}</span>
                <span className="visually-hidden">
                  {t('team.joinRequests.count', { count: joinRequests.length })}
                </span>
              </span>
            ) : null}
          </h2>
        </div>
        {joinRequests === null ? (
          <div className="loading" role="status">
            <Spinner />
            <span>{t('common.loading')}</span>
          </div>
        ) : typeof joinRequests === 'string' ? (
          <Failed retry={reloadJoinRequests} />
        ) : (
          <JoinRequestList
            requests={joinRequests}
            now={now}
            onChanged={changed}
            onSeatLimit={() => {
              noticesStore.getState().show(['team.inviteDialog.errors.seatLimit'], 'Failure');
              if (team.callerIsOwner) setLimitOpen(true);
            }}
          />
        )}
      </section>
      <section className="panel" part="card" aria-labelledby="invites-title">
        <div className="panel-head">
          <h2 className="panel-title" id="invites-title">
            {t('team.invites')}
          </h2>
          <button
            type="button"
            className="button small"
            part="button"
            ref={inviteButton}
            onClick={() => setInviting(true)}
          >
            {t('team.invite')}
          </button>
        </div>
        {invitations === null ? (
          <div className="loading" role="status">
            <Spinner />
            <span>{t('common.loading')}</span>
          </div>
        ) : typeof invitations === 'string' ? (
          <Failed retry={reloadInvitations} />
        ) : (
          <InvitationList
            invitations={invitations}
            now={now}
            onChanged={changed}
            focusAfterLast={() => inviteButton.current}
          />
        )}
      </section>
      <LoginOptions
        team={team}
        headingRef={optionsHeading}
        onSaved={(saved) => {
          setTeam(saved);
          reloadAudit();
        }}
      />
      <Support support={team.support} />
      <Activity round={auditRound} now={now} />
      <SeatLimitDialog
        open={limitOpen}
        team={team}
        onClose={() => setLimitOpen(false)}
        onSaved={(saved) => {
          setTeam(saved);
          setLimitOpen(false);
          noticesStore.getState().show(['team.limitDialog.saved'], 'Success');
          reloadAudit();
        }}
      />
      <InviteDialog
        open={inviting}
        owner={team.callerIsOwner}
        onClose={closeInvite}
        onInvited={(invitation) => {
          closeInvite();
          noticesStore.getState().show(['team.inviteDialog.sent', { email: invitation.email }], 'Success');
          changed();
        }}
      />
    </>
  );
}

/**
 * Manage team (spec §2, design §7): the team's seats and storage, its pending invitations, its sign-in
 * methods, its support contact and the latest admin actions — the team's real data, for its admins (the
 * manage area lets only them in; a 403 still says why).
 */
export default function TeamPage() {
  return (
    <WithTextPart part={ADMIN_TEXTS} waiting={<ScreenLoading />} failed={<Failed />}>
      <TeamScreen />
    </WithTextPart>
  );
}
