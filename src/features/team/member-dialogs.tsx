import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
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
import { Dialog } from '../../ui/dialog';
import { LoadingOverlay } from '../../ui/loading-overlay';
import { Spinner } from '../../ui/spinner';
import { failure, useCall } from './admin-kit';

/**
 * A member's permissions as checkboxes. The server decides who may change what (only an owner touches
 * owners, the team keeps an owner, nobody drops their own admin rights); its refusal is shown here.
 */
export function PermissionsDialog({
  member,
  open,
  onSaved,
  onClose,
}: {
  member: Member;
  open: boolean;
  onSaved(member: Member): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('users.permissions.title', { name: member.name })} onClose={onClose}>
      <PermissionsForm key={`${member.id}-${open}`} member={member} onSaved={onSaved} onClose={onClose} />
    </Dialog>
  );
}

function PermissionsForm({
  member,
  onSaved,
  onClose,
}: {
  member: Member;
  onSaved(member: Member): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const call = useCall();
  const [chosen, setChosen] = useState<Permission[]>(member.permissions);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) alert.current?.focus();
  }, [error]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const permissions = PERMISSION_NAMES.filter((p) => chosen.includes(p));
      const saved = await call((ctx) => updateMember(ctx, member.id, { permissions }));
      onSaved(saved);
      noticesStore.getState().show(t('users.permissions.saved', { name: member.name }), 'Success');
      onClose();
    } catch (problem) {
      setBusy(false);
      setError(failure(t, problem));
    }
  }

  return (
    <form className="stack" noValidate onSubmit={submit}>
      <fieldset disabled={busy}>
        <legend className="visually-hidden">{t('users.columns.permissions')}</legend>
        <div className="stack tight">
          {PERMISSION_NAMES.map((permission) => (
            <label key={permission} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(permission)}
                onChange={(event) =>
                  setChosen(
                    event.target.checked ? [...chosen, permission] : chosen.filter((p) => p !== permission),
                  )
                }
              />
              <span>{t(`manage.permissions.${permission}`)}</span>
            </label>
          ))}
        </div>
        {/* None is a state the product knows ('No Permissions Defined'), so it is allowed, but said. */}
        {chosen.length === 0 ? (
          <Alert tone="info">{t('users.permissions.noneWarning', { name: member.name })}</Alert>
        ) : null}
        {error ? (
          <Alert tone="error" ref={alert}>
            {error}
          </Alert>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" part="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button" part="button">
            {chosen.length === 0 ? t('users.permissions.saveNone') : t('users.permissions.save')}
          </button>
        </div>
      </fieldset>
      {busy ? <LoadingOverlay label={t('common.saving')} /> : null}
    </form>
  );
}

/**
 * The groups a member is in, as checkboxes: each change is saved at once (PUT or DELETE of the
 * membership), and the member's row follows.
 */
export function MemberGroupsDialog({
  member,
  open,
  onChanged,
  onClose,
}: {
  member: Member;
  open: boolean;
  onChanged(member: Member): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('users.groups.title', { name: member.name })} onClose={onClose}>
      <MemberGroups key={`${member.id}-${open}`} member={member} onChanged={onChanged} onClose={onClose} />
    </Dialog>
  );
}

function MemberGroups({
  member,
  onChanged,
  onClose,
}: {
  member: Member;
  onChanged(member: Member): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const call = useCall();
  const [groups, setGroups] = useState<Group[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [current, setCurrent] = useState(member);

  useEffect(() => {
    const stop = new AbortController();
    call((ctx) => listGroups(ctx, stop.signal)).then(
      (list) => setGroups(list.groups),
      (problem: unknown) => !stop.signal.aborted && setError(failure(t, problem)),
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
      setError(failure(t, problem));
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
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="dialog-actions">
        <button type="button" className="button" part="button" onClick={onClose}>
          {t('users.groups.done')}
        </button>
      </div>
    </div>
  );
}
