import { listText } from '../../i18n/list';
import { useEffect, useId, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import {
  listMembers,
  removeMember,
  unlockMember,
  updateMember,
  type Member,
  type MemberList,
  type SignInMethod,
} from '../../api/members';
import { noticesStore } from '../../state/notices';
import { sessionStore } from '../../state/session';
import { useElement } from '../../ui/element-context';
import { Link, useRouter } from '../../ui/router';
import { TextField } from '../../ui/text-field';
import {
  AdminPart,
  Confirm,
  failure,
  followGone,
  forbidden,
  Icon,
  IconButton,
  ListLoading,
  LoadFailed,
  SEARCH_DELAY_MS,
  ShowMore,
  useCall,
  useDebounced,
} from './admin-kit';
import { lastTime } from './format';
import { MemberGroupsDialog, PermissionsDialog } from './member-dialogs';

/** Manage user: the team's members, searched and paged by the server (never all of them at once). */
export default function UserPage() {
  return (
    <AdminPart>
      <Members />
    </AdminPart>
  );
}

type Loaded = MemberList & { q: string; key: string };
type DialogKind = 'permissions' | 'groups' | 'disable' | 'remove';

/** Providers go by their own names in every language; only the password is a word to translate. */
const PROVIDERS: Record<Exclude<SignInMethod, 'password' | 'sso'>, string> = {
  google: 'Google',
  azure: 'Microsoft',
  auth0: 'Auth0',
  apple: 'Apple',
};

/**
 * Why the server would refuse an action on `member` (domain/team-rules.ts), as the reason to show:
 * `change` for any change (an admin does not act on an owner), `leave` for disabling or removing them
 * (not oneself, not the team's last active owner). Offering them only to refuse after a confirmation
 * would waste the admin's time.
 */
function refusals(member: Member, list: MemberList, me: string | undefined, t: TFunction) {
  const owner = member.permissions.includes('OWNER');
  const change = owner && !list.callerIsOwner ? t('users.errors.notOwner') : undefined;
  const leave =
    change ??
    (member.id === me
      ? t('users.errors.self')
      : owner && !member.disabled && list.activeOwners <= 1
        ? t('users.errors.lastOwner')
        : undefined);
  return { change, leave };
}

/** A member's status: disabled, locked (and why, until when) or active. */
function statusOf(member: Member, language: string, t: TFunction): string {
  if (member.disabled) return t('users.status.disabled');
  if (member.locked?.reason === 'failedSignIns')
    return t('users.status.lockedFailures', {
      until: new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(member.locked.until),
      ),
    });
  if (member.locked) return t('users.status.lockedAdmin');
  return t('users.status.active');
}

function Members() {
  const { t } = useTranslation();
  const { language } = useElement();
  const router = useRouter();
  const call = useCall();
  const me = useStore(sessionStore, (state) => state.user?.sub);
  const q = (new URLSearchParams(router.location.search).get('q') ?? '').trim();
  const [text, setText] = useState(q);
  const typed = useDebounced(text.trim(), SEARCH_DELAY_MS);
  const [attempt, setAttempt] = useState(0);
  // The list and a failed load are kept with the query (and attempt) they answer: a new one shows as
  // loading until its own answer comes, with no state to reset.
  const key = `${attempt}:${q}`;
  const [list, setList] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState<{ key: string; error: unknown } | null>(null);
  const [more, setMore] = useState<'idle' | 'loading' | 'failed'>('idle');
  const [dialog, setDialog] = useState<{ kind: DialogKind; member: Member } | null>(null);
  const [open, setOpen] = useState(false);
  const search = useRef<HTMLInputElement>(null);
  const notes = useId();

  // The query lives in the address (?q=), so a reload or a shared link keeps it.
  useEffect(() => {
    if (typed === q) return;
    const params = new URLSearchParams(router.location.search);
    if (typed) params.set('q', typed);
    else params.delete('q');
    const rest = params.toString();
    router.navigate(`${router.location.path}${rest ? `?${rest}` : ''}`, { replace: true });
    // Only a new settled text navigates; the address changing by itself must not send it back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed]);
  // The address changed by other means (a link with ?q=): the field follows it.
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    setShownQ(q);
    if (text.trim() !== q) setText(q);
  }

  useEffect(() => {
    const stop = new AbortController();
    call((ctx) => listMembers(ctx, { q }, stop.signal)).then(
      (page) => {
        setList({ ...page, q, key });
        setMore('idle');
      },
      (problem: unknown) => !stop.signal.aborted && setFailed({ key, error: problem }),
    );
    return () => stop.abort();
  }, [call, q, key]);
  const error = failed?.key === key ? failed.error : null;

  async function showMore() {
    if (!list?.next) return;
    setMore('loading');
    try {
      const page = await call((ctx) => listMembers(ctx, { q: list.q, cursor: list.next }));
      setList((current) =>
        current && current.q === list.q
          ? { ...current, ...page, members: [...current.members, ...page.members] }
          : current,
      );
      setMore('idle');
    } catch {
      setMore('failed');
    }
  }

  const replace = (member: Member) =>
    setList(
      (current) =>
        current && { ...current, members: current.members.map((m) => (m.id === member.id ? member : m)) },
    );
  const ask = (kind: DialogKind, member: Member) => {
    setDialog({ kind, member });
    setOpen(true);
  };
  const close = () => setOpen(false);
  // The member is gone (removed in another tab, by another admin): the list as it now is.
  const { reloadIfGone, watched } = followGone(() => setAttempt((n) => n + 1));

  async function disable(member: Member, disabled: boolean) {
    const saved = await call((ctx) => updateMember(ctx, member.id, { disabled }));
    replace(saved);
    noticesStore
      .getState()
      .show([disabled ? 'users.disable.done' : 'users.enable.done', { name: member.name }], 'Success');
  }
  async function enable(member: Member) {
    try {
      await disable(member, false);
    } catch (problem) {
      reloadIfGone(problem);
      noticesStore.getState().show(failure(problem), 'Failure');
    }
  }
  async function unlock(member: Member) {
    try {
      replace(await call((ctx) => unlockMember(ctx, member.id)));
      noticesStore.getState().show(['users.unlock.done', { name: member.name }], 'Success');
    } catch (problem) {
      reloadIfGone(problem);
      noticesStore.getState().show(failure(problem), 'Failure');
    }
  }
  async function remove(member: Member) {
    await call((ctx) => removeMember(ctx, member.id));
    setList(
      (current) =>
        current && {
          ...current,
          members: current.members.filter((m) => m.id !== member.id),
          total: Math.max(0, current.total - 1),
        },
    );
    noticesStore.getState().show(['users.remove.done', { name: member.name }], 'Success');
  }

  const loading = !error && list?.key !== key;
  // Not an admin: the screen is not theirs; nothing to search or invite from.
  const notAdmin = forbidden(error);

  return (
    <section className="panel" part="card" aria-labelledby="users-title">
      <div className="panel-heading">
        <h2 className="panel-title" id="users-title">
          {t('users.title')}
        </h2>
        {notAdmin ? null : (
          <Link
            to="/manage/team?invite=1"
            className="icon-button subtle"
            aria-label={t('users.actions.add')}
            title={t('users.actions.add')}
          >
            <Icon name="add" />
          </Link>
        )}
      </div>
      {notAdmin ? null : (
        <form role="search" className="members-search" onSubmit={(event) => event.preventDefault()}>
          <TextField
            label={t('users.search.label')}
            hint={t('users.search.hint')}
            type="search"
            name="q"
            autoComplete="off"
            maxLength={100}
            value={text}
            onChange={(event) => setText(event.target.value)}
            inputRef={search}
          />
        </form>
      )}
      {error ? <LoadFailed error={error} onRetry={() => setAttempt((n) => n + 1)} /> : null}
      {loading ? <ListLoading /> : null}
      {list && !loading && !error ? (
        <>
          <p className="hint" role="status">
            {list.members.length === 0
              ? list.q
                ? t('users.noMatch', { q: list.q })
                : t('users.none')
              : t(list.totalExact ? 'users.shown' : 'users.shownAtLeast', {
                  shown: list.members.length,
                  total: list.total,
                })}
          </p>
          <ul className="members" aria-labelledby="users-title">
            {list.members.map((member) => {
              const refused = refusals(member, list, me, t);
              const note = refused.leave ? `${notes}-${member.id}` : undefined;
              return (
                <li key={member.id} className={member.disabled ? 'member disabled' : 'member'}>
                  <div className="member-who">
                    <span className="member-name">
                      {member.name}
                      {member.id === me ? ` ${t('users.you')}` : ''}
                    </span>
                    <span className="member-email">{member.email}</span>
                  </div>
                  <dl className="member-facts">
                    <div>
                      <dt>{t('users.columns.permissions')}</dt>
                      <dd>
                        {member.permissions.length
                          ? listText(
                              member.permissions.map((p) => t(`manage.permissions.${p}`)),
                              language,
                            )
                          : t('users.nothing')}
                      </dd>
                    </div>
                    <div>
                      <dt>{t('users.columns.methods')}</dt>
                      <dd>
                        {member.methods.length
                          ? listText(
                              member.methods.map((m) =>
                                m === 'password' || m === 'sso' ? t(`users.methods.${m}`) : PROVIDERS[m],
                              ),
                              language,
                            )
                          : t('users.nothing')}
                      </dd>
                    </div>
                    <div>
                      <dt>{t('users.columns.groups')}</dt>
                      <dd>
                        {member.groups.length
                          ? listText(
                              member.groups.map((g) => g.name),
                              language,
                            )
                          : t('users.nothing')}
                      </dd>
                    </div>
                    <div>
                      <dt>{t('users.columns.lastSignIn')}</dt>
                      <dd>
                        {member.lastSignInAt ? (
                          <time dateTime={member.lastSignInAt}>
                            {lastTime(member.lastSignInAt, language, t)}
                          </time>
                        ) : (
                          t('users.never')
                        )}
                      </dd>
                    </div>
                    <div>
                      <dt>{t('users.columns.twoStep')}</dt>
                      <dd>{t(member.twoStep ? 'users.twoStep.on' : 'users.twoStep.off')}</dd>
                    </div>
                    <div>
                      <dt>{t('users.columns.status')}</dt>
                      <dd className={member.disabled || member.locked ? 'member-status-off' : undefined}>
                        {statusOf(member, language, t)}
                      </dd>
                    </div>
                  </dl>
                  {note ? (
                    <p className="hint member-note" id={note}>
                      {refused.leave}
                    </p>
                  ) : null}
                  <div className="member-actions">
                    {member.locked ? (
                      <IconButton
                        icon="unlock"
                        label={t('users.actions.unlock', { name: member.name })}
                        blockedBy={refused.change && note}
                        onClick={() => void unlock(member)}
                      />
                    ) : null}
                    <IconButton
                      icon="settings"
                      label={t('users.actions.settings', { name: member.name })}
                      blockedBy={refused.change && note}
                      onClick={() => ask('permissions', member)}
                    />
                    <IconButton
                      icon="group"
                      label={t('users.actions.group', { name: member.name })}
                      onClick={() => ask('groups', member)}
                    />
                    {member.disabled ? (
                      <IconButton
                        icon="enable"
                        label={t('users.actions.enable', { name: member.name })}
                        blockedBy={refused.change && note}
                        onClick={() => void enable(member)}
                      />
                    ) : (
                      <IconButton
                        icon="block"
                        label={t('users.actions.disable', { name: member.name })}
                        blockedBy={note}
                        onClick={() => ask('disable', member)}
                      />
                    )}
                    <IconButton
                      icon="delete"
                      label={t('users.actions.delete', { name: member.name })}
                      blockedBy={note}
                      onClick={() => ask('remove', member)}
                    />
                  </div>
                </li>
              );
            })}
          </ul>
          <ShowMore
            state={more}
            hasMore={!!list.next}
            label={t('users.more')}
            onMore={() => void showMore()}
          />
        </>
      ) : null}
      {dialog?.kind === 'permissions' ? (
        <PermissionsDialog
          member={dialog.member}
          open={open}
          rules={{
            self: dialog.member.id === me,
            callerIsOwner: list?.callerIsOwner ?? false,
            soleOwner:
              dialog.member.permissions.includes('OWNER') &&
              !dialog.member.disabled &&
              (list?.activeOwners ?? 0) <= 1,
          }}
          onSaved={replace}
          onFailed={reloadIfGone}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === 'groups' ? (
        <MemberGroupsDialog
          member={dialog.member}
          open={open}
          onChanged={replace}
          onFailed={reloadIfGone}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === 'disable' ? (
        <Confirm
          open={open}
          title={t('users.disable.title', { name: dialog.member.name })}
          text={t('users.disable.text', { name: dialog.member.name, email: dialog.member.email })}
          action={t('users.disable.confirm')}
          onConfirm={() => watched(disable(dialog.member, true))}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === 'remove' ? (
        <Confirm
          open={open}
          title={t('users.remove.title', { name: dialog.member.name })}
          text={t('users.remove.text', { name: dialog.member.name, email: dialog.member.email })}
          action={t('users.remove.confirm')}
          onConfirm={() => watched(remove(dialog.member))}
          onClose={close}
          returnFocus={() => search.current}
        />
      ) : null}
    </section>
  );
}
