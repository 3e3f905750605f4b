import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import {
  addDirectory,
  listDirectories,
  revokeDirectory,
  rotateDirectoryToken,
  type Directory,
  type DirectoryWithToken,
} from '../../api/directories';
import { DIRECTORY_SIGN_IN, type DirectorySignIn } from '../../contract/directories';
import { charCount, LIMITS } from '../../contract/limits';
import { Alert } from '../../ui/alert';
import { DialogForm, FormDialog } from '../../ui/dialog';
import { TextField } from '../../ui/text-field';
import {
  AdminPart,
  Choices,
  Confirm,
  CopyField,
  failure,
  IconButton,
  type InDialogProps,
  notify,
  ShownOnceDialog,
  type ShownOnceProps,
  LastTime,
  TeamListPanel,
  useAsked,
  useDialogCall,
  useListActions,
  useShownOnce,
  useTeamList,
} from './admin-kit';
import { refusalOf } from './format';

/**
 * Directory sync (routes/directories.ts): the team's directories — Okta, Microsoft Entra ID or another
 * SCIM client that adds, changes and removes its members and groups. Connect one (a name and how the
 * members it adds sign in), replace its token, disconnect it. The token and the SCIM address show
 * once, in a dialog, right after the server made the token.
 */
export default function DirectoriesPage() {
  return (
    <AdminPart>
      <Directories />
    </AdminPart>
  );
}

type Asked = { kind: 'rotate' | 'revoke'; directory: Directory };

const byName = (a: Directory, b: Directory) => a.name.localeCompare(b.name);

function Directories() {
  const { t } = useTranslation();
  const directories = useTeamList(
    async (ctx, signal) => (await listDirectories(ctx, signal)).directories,
    (directory) => directory.id,
    byName,
  );
  const { asked, open, ask, close } = useAsked<Asked>();
  const [adding, setAdding] = useState(false);
  const token = useShownOnce<DirectoryWithToken>();
  const addButton = useRef<HTMLButtonElement>(null);
  const { put } = directories;
  const { act, dropping } = useListActions(directories);
  const showToken = (shown: DirectoryWithToken) => {
    put(shown.directory);
    token.reveal(shown);
  };

  return (
    <TeamListPanel
      name="directories"
      list={directories}
      title={t('directories.title')}
      intro={t('directories.intro')}
      empty={t('directories.none')}
      actionLabel={t('directories.add.open')}
      onAction={() => setAdding(true)}
      buttonRef={addButton}
      row={(directory) => (
        <li key={directory.id} className="member">
          <div className="member-who">
            <span className="member-name">{directory.name}</span>
          </div>
          <dl className="member-facts">
            <div>
              <dt>{t('directories.columns.signIn')}</dt>
              <dd>{t(`directories.signIn.${directory.signIn}.name`)}</dd>
            </div>
            <div>
              <dt>{t('directories.columns.lastUsed')}</dt>
              <dd>
                <LastTime iso={directory.lastUsedAt} />
              </dd>
            </div>
          </dl>
          <div className="member-actions">
            <IconButton
              icon="key"
              label={t('directories.actions.rotate', { directory: directory.name })}
              onClick={() => ask({ kind: 'rotate', directory })}
            />
            <IconButton
              icon="delete"
              label={t('directories.actions.revoke', { directory: directory.name })}
              onClick={() => ask({ kind: 'revoke', directory })}
            />
          </div>
        </li>
      )}
    >
      <FormDialog open={adding} title={t('directories.add.title')} onClose={() => setAdding(false)}>
        {(busy, setBusy) => (
          <AddForm busy={busy} setBusy={setBusy} onClose={() => setAdding(false)} onAdded={showToken} />
        )}
      </FormDialog>
      {asked?.kind === 'rotate' ? (
        <Confirm
          open={open}
          title={t('directories.rotate.title', { directory: asked.directory.name })}
          text={t('directories.rotate.text', { directory: asked.directory.name })}
          action={t('directories.rotate.confirm')}
          onConfirm={() => act((ctx) => rotateDirectoryToken(ctx, asked.directory.id), showToken)}
          onClose={close}
        />
      ) : null}
      {asked?.kind === 'revoke' ? (
        <Confirm
          open={open}
          title={t('directories.revoke.title', { directory: asked.directory.name })}
          text={t('directories.revoke.text', { directory: asked.directory.name })}
          action={t('directories.revoke.confirm')}
          onConfirm={() =>
            act(
              (ctx) => revokeDirectory(ctx, asked.directory.id),
              dropping(asked.directory, ['directories.revoke.done', { directory: asked.directory.name }]),
            )
          }
          onClose={close}
          returnFocus={() => addButton.current}
        />
      ) : null}
      {token.shown ? (
        <TokenDialog shown={token.shown} onClose={token.dismiss} returnFocus={() => addButton.current} />
      ) : null}
    </TeamListPanel>
  );
}

/** A directory's name and how the members it adds sign in; what was typed stays on a refusal. */
function AddForm(props: InDialogProps & { onAdded(shown: DirectoryWithToken): void }) {
  const { busy, onAdded, onClose } = props;
  const { t } = useTranslation();
  const say = useSay();
  const send = useDialogCall(props);
  const [name, setName] = useState('');
  const [signIn, setSignIn] = useState<DirectorySignIn>('sso');
  const [problems, setProblems] = useState<{ name?: Said; form?: Said }>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setProblems({ name: ['directories.errors.nameRequired'] });
    if (charCount(trimmed) > LIMITS.name)
      return setProblems({ name: ['directories.errors.nameTooLong', { n: LIMITS.name }] });
    setProblems({});
    await send(
      (ctx) => addDirectory(ctx, { name: trimmed, signIn }),
      (shown) => {
        onAdded(shown);
        notify(['directories.add.done', { directory: shown.directory.name }]);
      },
      (error) => {
        const { code, field } = refusalOf(error);
        setProblems(
          code === 'invalidName' && field === 'name'
            ? { name: ['directories.errors.invalidName'] }
            : { form: failure(error) },
        );
      },
    );
  }

  return (
    <DialogForm
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={t('directories.add.submit')}
      error={say(problems.form)}
    >
      <div className="stack">
        <TextField
          label={t('directories.fields.name')}
          hint={t('directories.fields.nameHint')}
          name="name"
          autoComplete="off"
          limit={LIMITS.name}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={say(problems.name)}
          autoFocus
        />
        <Choices<DirectorySignIn>
          legend={t('directories.fields.signIn')}
          name="signIn"
          choices={DIRECTORY_SIGN_IN}
          value={signIn}
          onChange={setSignIn}
          text={(choice) => ({
            name: t(`directories.signIn.${choice}.name`),
            hint: t(`directories.signIn.${choice}.hint`),
          })}
        />
      </div>
    </DialogForm>
  );
}

/** The directory just connected or given a new token: the SCIM address and, once only, the token. */
function TokenDialog({ shown, onClose, returnFocus }: ShownOnceProps<DirectoryWithToken>) {
  const { t } = useTranslation();
  return (
    <ShownOnceDialog
      title={t('directories.token.title', { directory: shown.directory.name })}
      done={t('directories.token.done')}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      <CopyField label={t('directories.token.url')} value={shown.scimUrl} copy={t('directories.copy.url')} />
      <CopyField
        label={t('directories.token.label')}
        value={shown.token}
        copy={t('directories.copy.token')}
      />
      <Alert tone="info">{t('directories.token.once')}</Alert>
    </ShownOnceDialog>
  );
}
