import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import {
  listGroups,
  PERMISSION_NAMES,
  setGroupMember,
  updateMember,
  type Group,
  type Member,
  type Permission,
} from '../../api/members';
import { noticesStore } from '../../state/notices';
import { Alert } from '../../ui/alert';
import { Dialog, DialogForm } from '../../ui/dialog';
import { Spinner } from '../../ui/spinner';
import { failure, useCall } from './admin-kit';

/** What the server's rules (domain/team-rules.ts) make of this member's permissions for this caller. */
export interface PermissionRules {
  /** The member is the caller. */
  self: boolean;
  callerIsOwner: boolean;
  /** The member is the team's only owner who is not disabled. */
  soleOwner: boolean;
}

interface PermissionsProps {
  member: Member;
  rules: PermissionRules;
  onSaved(member: Member): void;
  /** A save failed (the list may need to follow: the member may be gone). */
  onFailed?(problem: unknown): void;
  onClose(): void;
}

/**
 * A member's permissions as checkboxes. The server decides who may change what (only an owner touches
 * owners, the team keeps an owner, nobody drops their own admin rights): a box it would refuse to change
 * is disabled, with the reason beside it; any other refusal is shown here.
 */
export function PermissionsDialog({ open, ...props }: PermissionsProps & { open: boolean }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      title={t('users.permissions.title', { name: props.member.name })}
      onClose={props.onClose}
    >
      <PermissionsForm key={`${props.member.id}-${open}`} {...props} />
    </Dialog>
  );
}

function PermissionsForm({ member, rules, onSaved, onFailed, onClose }: PermissionsProps) {
  const { t } = useTranslation();
  const say = useSay();
  const call = useCall();
  const notes = useId();
  const [chosen, setChosen] = useState<Permission[]>(member.permissions);
  const adminRights = chosen.filter((p) => p === 'OWNER' || p === 'ADMIN');
  /** Why this box cannot change, or null. */
  const lockOf = (permission: Permission): string | null => {
    if (permission === 'OWNER' && !rules.callerIsOwner) return t('users.errors.notOwner');
    if (permission === 'OWNER' && rules.soleOwner && chosen.includes('OWNER'))
      return t('users.errors.lastOwner');
    if (rules.self && adminRights.length === 1 && adminRights[0] === permission)
      return t('users.errors.self');
    return null;
  };
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Said | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const permissions = PERMISSION_NAMES.filter((p) => chosen.includes(p));
      const saved = await call((ctx) => updateMember(ctx, member.id, { permissions }));
      onSaved(saved);
      noticesStore.getState().show(['users.permissions.saved', { name: member.name }], 'Success');
      onClose();
    } catch (problem) {
      setBusy(false);
      setError(failure(problem));
      onFailed?.(problem);
    }
  }

  return (
    <DialogForm
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      error={say(error)}
      submitLabel={chosen.length === 0 ? t('users.permissions.saveNone') : t('users.permissions.save')}
    >
      <legend className="visually-hidden">{t('users.columns.permissions')}</legend>
      <div className="stack tight">
        {PERMISSION_NAMES.map((permission) => {
          const lock = lockOf(permission);
          const note = `${notes}-${permission}`;
          return (
            <label key={permission} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(permission)}
                disabled={lock !== null}
                aria-describedby={lock ? note : undefined}
                onChange={(event) =>
                  setChosen(
                    event.target.checked ? [...chosen, permission] : chosen.filter((p) => p !== permission),
                  )
                }
              />
              <span>{t(`manage.permissions.${permission}`)}</span>
              {lock ? (
                <span className="hint" id={note}>
                  {lock}
                </span>
              ) : null}
            </label>
          );
        })}
      </div>
      {/* None is a state the product knows ('No Permissions Defined'), so it is allowed, but said. */}
      {chosen.length === 0 ? (
        <Alert tone="info">{t('users.permissions.noneWarning', { name: member.name })}</Alert>
      ) : null}
    </DialogForm>
  );
}

/**
 * The groups a member is in, as checkboxes: each change is saved at once (PUT or DELETE of the
 * membership), and the member's row follows.
 */
interface GroupsProps {
  member: Member;
  onChanged(member: Member): void;
  /** A change failed (the list may need to follow: the member may be gone). */
  onFailed?(problem: unknown): void;
  onClose(): void;
}

export function MemberGroupsDialog({ open, ...props }: GroupsProps & { open: boolean }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('users.groups.title', { name: props.member.name })} onClose={props.onClose}>
      <MemberGroups key={`${props.member.id}-${open}`} {...props} />
    </Dialog>
  );
}

function MemberGroups({ member, onChanged, onFailed, onClose }: GroupsProps) {
  const { t } = useTranslation();
  const say = useSay();
  const call = useCall();
  const [groups, setGroups] = useState<Group[] | null>(null);
  const [error, setError] = useState<Said | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [current, setCurrent] = useState(member);

  useEffect(() => {
    const stop = new AbortController();
    call((ctx) => listGroups(ctx, stop.signal)).then(
      (list) => setGroups(list.groups),
      (problem: unknown) => !stop.signal.aborted && setError(failure(problem)),
    );
    return () => stop.abort();
  }, [call, t]);

  async function toggle(group: Group, inGroup: boolean) {
    // Not disabled while a change runs: a disabled box would lose the keyboard's focus.
    if (busy) return;
    setBusy(group.id);
    setError(null);
    try {
      const saved = await call((ctx) => setGroupMember(ctx, group.id, member.id, inGroup));
      setGroups((list) => list?.map((g) => (g.id === saved.id ? saved : g)) ?? null);
      const next = {
        ...current,
        groups: inGroup
          ? [...current.groups, { id: saved.id, name: saved.name }].sort((a, b) =>
              a.name.localeCompare(b.name),
            )
          : current.groups.filter((g) => g.id !== saved.id),
      };
      setCurrent(next);
      onChanged(next);
    } catch (problem) {
      setError(failure(problem));
      onFailed?.(problem);
    } finally {
      setBusy(null);
    }
  }

  const inGroup = (group: Group) => current.groups.some((g) => g.id === group.id);
  return (
    <div className="stack">
      {groups === null && !error ? (
        <div className="loading" role="status">
          <Spinner />
          <span>{t('common.loading')}</span>
        </div>
      ) : null}
      {groups?.length === 0 ? <p>{t('users.groups.none')}</p> : null}
      {groups?.length ? (
        <fieldset aria-busy={busy !== null}>
          <legend className="visually-hidden">{t('users.columns.groups')}</legend>
          <div className="stack tight">
            {groups.map((group) => (
              <label key={group.id} className="check">
                <input
                  type="checkbox"
                  checked={inGroup(group)}
                  onChange={(event) => void toggle(group, event.target.checked)}
                />
                <span>{group.name}</span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {error ? <Alert tone="error">{say(error)}</Alert> : null}
      <div className="dialog-actions">
        <button type="button" className="button" part="button" onClick={onClose}>
          {t('users.groups.done')}
        </button>
      </div>
    </div>
  );
}
