import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import {
  createGroup,
  deleteGroup,
  errorCode,
  listGroups,
  listMembers,
  renameGroup,
  setGroupMember,
  type Group,
  type Member,
} from '../../api/members';
import { charCount, LIMITS } from '../../contract/limits';
import { noticesStore } from '../../state/notices';
import { Alert } from '../../ui/alert';
import { Dialog, DialogForm } from '../../ui/dialog';
import { TextField } from '../../ui/text-field';
import {
  AdminPart,
  Confirm,
  failure,
  forbidden,
  IconButton,
  ListLoading,
  MemberSearchField,
  SEARCH_DELAY_MS,
  TeamListBody,
  useCall,
  useDebounced,
  useTeamList,
} from './admin-kit';

/** How many members the picker offers for a search. */
const PICKS = 8;

/** Manage group: the team's groups with their members; create, rename, delete, add and take out. */
export default function GroupPage() {
  return (
    <AdminPart>
      <Groups />
    </AdminPart>
  );
}

type Asked = { kind: 'rename' | 'delete' | 'add'; group: Group };

const byName = (a: Group, b: Group) => a.name.localeCompare(b.name);

function Groups() {
  const { t } = useTranslation();
  const call = useCall();
  const groups = useTeamList(
    async (ctx, signal) => (await listGroups(ctx, signal)).groups,
    (group) => group.id,
    byName,
  );
  const [asked, setAsked] = useState<Asked | null>(null);
  const [open, setOpen] = useState(false);
  const nameField = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  const { put } = groups;
  const ask = (kind: Asked['kind'], group: Group) => {
    setAsked({ kind, group });
    setOpen(true);
  };
  const close = () => setOpen(false);

  async function takeOut(group: Group, member: Group['members'][number]) {
    try {
      put(await call((ctx) => setGroupMember(ctx, group.id, member.id, false)));
      noticesStore
        .getState()
        .show(['groups.member.removed', { name: member.name, group: group.name }], 'Success');
    } catch (problem) {
      noticesStore.getState().show(failure(problem), 'Failure');
    }
    // The button is gone with the member: focus goes to the group's heading, not to the page's start.
    listRef.current?.querySelector<HTMLElement>(`[data-group="${group.id}"]`)?.focus();
  }

  return (
    <section className="panel" part="card" aria-labelledby="groups-title">
      <h2 className="panel-title" id="groups-title">
        {t('groups.title')}
      </h2>
      {forbidden(groups.error) ? null : <CreateGroup onCreated={put} inputRef={nameField} />}
      <TeamListBody list={groups} empty={t('groups.none')}>
        {(items) => (
          <ul className="groups" ref={listRef}>
            {items.map((group) => (
              <li key={group.id} className="group">
                <div className="panel-heading">
                  <h3 className="group-name" tabIndex={-1} data-group={group.id}>
                    {group.name}
                  </h3>
                  <div className="member-actions">
                    <IconButton
                      icon="add"
                      label={t('groups.actions.add', { group: group.name })}
                      onClick={() => ask('add', group)}
                    />
                    <IconButton
                      icon="edit"
                      label={t('groups.actions.rename', { group: group.name })}
                      onClick={() => ask('rename', group)}
                    />
                    <IconButton
                      icon="delete"
                      label={t('groups.actions.delete', { group: group.name })}
                      onClick={() => ask('delete', group)}
                    />
                  </div>
                </div>
                {group.members.length === 0 ? (
                  <p className="hint">{t('groups.empty')}</p>
                ) : (
                  <ul className="group-members" aria-label={t('groups.membersOf', { group: group.name })}>
                    {group.members.map((member) => (
                      <li key={member.id}>
                        <span className="member-who">
                          <span className="member-name">{member.name}</span>
                          <span className="member-email">{member.email}</span>
                        </span>
                        <IconButton
                          icon="close"
                          label={t('groups.actions.removeMember', { name: member.name, group: group.name })}
                          onClick={() => void takeOut(group, member)}
                        />
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
      </TeamListBody>
      {asked?.kind === 'rename' ? (
        <Dialog open={open} title={t('groups.rename.title', { group: asked.group.name })} onClose={close}>
          <NameForm key={`${asked.group.id}-${open}`} group={asked.group} onSaved={put} onClose={close} />
        </Dialog>
      ) : null}
      {asked?.kind === 'add' ? (
        <Dialog open={open} title={t('groups.add.title', { group: asked.group.name })} onClose={close}>
          <AddMember key={`${asked.group.id}-${open}`} group={asked.group} onAdded={put} onClose={close} />
        </Dialog>
      ) : null}
      {asked?.kind === 'delete' ? (
        <Confirm
          open={open}
          title={t('groups.delete.title', { group: asked.group.name })}
          text={t('groups.delete.text', { group: asked.group.name, count: asked.group.members.length })}
          action={t('groups.delete.confirm')}
          onConfirm={async () => {
            await call((ctx) => deleteGroup(ctx, asked.group.id));
            groups.drop(asked.group);
            noticesStore.getState().show(['groups.delete.done', { group: asked.group.name }], 'Success');
          }}
          onClose={close}
          returnFocus={() => nameField.current}
        />
      ) : null}
    </section>
  );
}

/** A group name checked as the server does (trimmed, 1–50 characters), or what to say of its problem. */
function checkName(name: string): Said | null {
  const trimmed = name.trim();
  if (!trimmed) return ['groups.errors.required'];
  if (charCount(trimmed) > LIMITS.name) return ['groups.errors.tooLong', { n: LIMITS.name }];
  return null;
}

/** A refusal of a name: the field's when the server names it (invalidName, nameTaken). */
function nameProblem(error: unknown): { field: Said | null; form: Said | null } {
  const code = errorCode(error);
  if (code === 'invalidName' || code === 'nameTaken') return { field: [`groups.errors.${code}`], form: null };
  return { field: null, form: failure(error) };
}

function CreateGroup({
  onCreated,
  inputRef,
}: {
  onCreated(group: Group): void;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const call = useCall();
  const [name, setName] = useState('');
  const [fieldError, setFieldError] = useState<Said | null>(null);
  const [formError, setFormError] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const problem = checkName(name);
    setFieldError(problem);
    if (problem) return inputRef.current?.focus();
    setBusy(true);
    try {
      const group = await call((ctx) => createGroup(ctx, name.trim()));
      onCreated(group);
      setName('');
      noticesStore.getState().show(['groups.create.done', { group: group.name }], 'Success');
    } catch (error) {
      const refused = nameProblem(error);
      setFieldError(refused.field);
      setFormError(refused.form);
    } finally {
      setBusy(false);
    }
    inputRef.current?.focus();
  }

  return (
    <form className="group-create" noValidate onSubmit={submit}>
      <fieldset disabled={busy}>
        <TextField
          label={t('groups.create.label')}
          name="groupName"
          autoComplete="off"
          limit={LIMITS.name}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={say(fieldError)}
          inputRef={inputRef}
        />
        <button type="submit" className="button" part="button">
          {t('groups.create.submit')}
        </button>
      </fieldset>
      {formError ? <Alert tone="error">{say(formError)}</Alert> : null}
    </form>
  );
}

function NameForm({
  group,
  onSaved,
  onClose,
}: {
  group: Group;
  onSaved(group: Group): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const call = useCall();
  const [name, setName] = useState(group.name);
  const [fieldError, setFieldError] = useState<Said | null>(null);
  const [formError, setFormError] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const problem = checkName(name);
    setFieldError(problem);
    if (problem) return input.current?.focus();
    setBusy(true);
    try {
      const saved = await call((ctx) => renameGroup(ctx, group.id, name.trim()));
      onSaved(saved);
      noticesStore.getState().show(['groups.rename.done', { group: saved.name }], 'Success');
      onClose();
    } catch (error) {
      const refused = nameProblem(error);
      setFieldError(refused.field);
      setFormError(refused.form);
      setBusy(false);
      input.current?.focus();
    }
  }

  return (
    <DialogForm busy={busy} onSubmit={submit} onClose={onClose} submitLabel={t('groups.rename.submit')}>
      <TextField
        label={t('groups.rename.label')}
        name="groupName"
        autoComplete="off"
        limit={LIMITS.name}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={say(fieldError)}
        inputRef={input}
        autoFocus
      />
      {formError ? <Alert tone="error">{say(formError)}</Alert> : null}
    </DialogForm>
  );
}

/** The member picker: the members search (name or e-mail start), a few at a time, each a button. */
function AddMember({
  group,
  onAdded,
  onClose,
}: {
  group: Group;
  onAdded(group: Group): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const call = useCall();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), SEARCH_DELAY_MS);
  // What a search found, or why not, with the query it answers.
  const [found, setFound] = useState<{ q: string; members: Member[] | null; error: Said | null } | null>(
    null,
  );
  const [addError, setAddError] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!q) return;
    const stop = new AbortController();
    call((ctx) => listMembers(ctx, { q, limit: PICKS }, stop.signal)).then(
      (page) => setFound({ q, members: page.members, error: null }),
      (problem: unknown) => !stop.signal.aborted && setFound({ q, members: null, error: failure(problem) }),
    );
    return () => stop.abort();
  }, [call, q, t]);
  const current = found?.q === q ? found : null;
  const error = addError ?? current?.error ?? null;

  async function add(member: Member) {
    setBusy(true);
    setAddError(null);
    try {
      onAdded(await call((ctx) => setGroupMember(ctx, group.id, member.id, true)));
      noticesStore
        .getState()
        .show(['groups.member.added', { name: member.name, group: group.name }], 'Success');
      onClose();
    } catch (problem) {
      setAddError(failure(problem));
      setBusy(false);
    }
  }

  const inGroup = new Set(group.members.map((m) => m.id));
  const results = current?.members ?? null;
  return (
    <div className="stack">
      <MemberSearchField value={text} onChange={setText} autoFocus />
      {q && !results && !error ? <ListLoading /> : null}
      {q && results ? (
        <>
          <p className="hint" role="status">
            {results.length ? t('groups.add.found', { q }) : t('users.noMatch', { q })}
          </p>
          {results.length ? (
            <ul className="picks" aria-label={t('groups.add.results')}>
              {results.map((member) => (
                <li key={member.id}>
                  <button
                    type="button"
                    className="pick"
                    disabled={busy || inGroup.has(member.id)}
                    onClick={() => void add(member)}
                  >
                    <span className="member-name">{member.name}</span>
                    <span className="member-email">
                      {inGroup.has(member.id)
                        ? t('groups.add.already', { email: member.email })
                        : member.email}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
      {error ? <Alert tone="error">{say(error)}</Alert> : null}
      <div className="dialog-actions">
        <button type="button" className="button secondary" part="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}
