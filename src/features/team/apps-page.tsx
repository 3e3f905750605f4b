import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  changeTeamApp,
  deleteTeamApp,
  listTeamApps,
  registerTeamApp,
  rotateTeamAppSecret,
  type TeamApp,
  type TeamAppKind,
  type TeamAppWithSecret,
} from '../../api/team';
import {
  APP_KINDS,
  APP_URI_LIMITS,
  appUriProblem,
  LOGOUT_KINDS,
  logoutUriProblem,
  REDIRECT_KINDS,
} from '../../contract/app-uris';
import { charCount, LIMITS } from '../../contract/limits';
import { useSay, type Said } from '../../i18n/said';
import { Alert } from '../../ui/alert';
import { FormDialog } from '../../ui/dialog';
import { LoadingOverlay } from '../../ui/loading-overlay';
import { TextField } from '../../ui/text-field';
import {
  AdminPart,
  Check,
  Choices,
  Confirm,
  CopyButton,
  CopyField,
  failure,
  gone,
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
 * The team's own OpenID Connect applications (routes/team-apps.ts): register one, change its name,
 * addresses (its back-channel logout URI too) and consent, a new secret, turn it off or on, delete it. A secret shows once, in a dialog,
 * right after the server made it.
 */
export default function AppsPage() {
  return (
    <AdminPart>
      <Apps />
    </AdminPart>
  );
}

type Asked = { kind: 'edit' | 'rotate' | 'disable' | 'delete'; app: TeamApp };

const byName = (a: TeamApp, b: TeamApp) => a.name.localeCompare(b.name);

function Apps() {
  const { t } = useTranslation();
  const apps = useTeamList(listTeamApps, (app) => app.clientId, byName);
  const { asked, open, ask, close } = useAsked<Asked>();
  const [registering, setRegistering] = useState(false);
  const secret = useShownOnce<TeamAppWithSecret>();
  const registerButton = useRef<HTMLButtonElement>(null);
  const { put } = apps;
  // What was acted on is gone (deleted in another tab): the list follows.
  const { act, actNow, putting, dropping } = useListActions(apps);
  const showSecret = (made: TeamAppWithSecret) => {
    put(made.app);
    secret.reveal(made);
  };

  const enable = (app: TeamApp) =>
    actNow(
      (ctx) => changeTeamApp(ctx, app.clientId, { disabled: false }),
      putting(() => ['teamApps.enable.done', { app: app.name }]),
    );

  return (
    <TeamListPanel
      name="apps"
      list={apps}
      title={t('teamApps.title')}
      intro={t('teamApps.intro')}
      empty={t('teamApps.none')}
      actionLabel={t('teamApps.register.open')}
      onAction={() => setRegistering(true)}
      buttonRef={registerButton}
      row={(app) => (
        <li key={app.clientId} className={app.disabled ? 'member disabled' : 'member'}>
          <div className="member-who">
            <span className="member-name">{app.name}</span>
            <span className="member-email">{t(`teamApps.kinds.${app.kind}.name`)}</span>
          </div>
          <dl className="member-facts">
            <div>
              <dt>{t('teamApps.columns.clientId')}</dt>
              <dd className="app-client-id">
                <code>{app.clientId}</code>
                <CopyButton value={app.clientId} label={t('teamApps.copy.clientIdOf', { app: app.name })} />
              </dd>
            </div>
            <div>
              <dt>{t('teamApps.columns.status')}</dt>
              <dd className={app.disabled ? 'member-status-off' : undefined}>
                {t(app.disabled ? 'teamApps.status.disabled' : 'teamApps.status.enabled')}
              </dd>
            </div>
            <div>
              <dt>{t('teamApps.columns.lastUsed')}</dt>
              <dd>
                <LastTime iso={app.lastUsedAt} />
              </dd>
            </div>
          </dl>
          <div className="member-actions">
            <IconButton
              icon="edit"
              label={t('teamApps.actions.edit', { app: app.name })}
              onClick={() => ask({ kind: 'edit', app })}
            />
            {app.hasSecret ? (
              <IconButton
                icon="key"
                label={t('teamApps.actions.rotate', { app: app.name })}
                onClick={() => ask({ kind: 'rotate', app })}
              />
            ) : null}
            {app.disabled ? (
              <IconButton
                icon="enable"
                label={t('teamApps.actions.enable', { app: app.name })}
                onClick={() => enable(app)}
              />
            ) : (
              <IconButton
                icon="block"
                label={t('teamApps.actions.disable', { app: app.name })}
                onClick={() => ask({ kind: 'disable', app })}
              />
            )}
            <IconButton
              icon="delete"
              label={t('teamApps.actions.delete', { app: app.name })}
              onClick={() => ask({ kind: 'delete', app })}
            />
          </div>
        </li>
      )}
    >
      <FormDialog
        open={registering}
        title={t('teamApps.register.title')}
        onClose={() => setRegistering(false)}
      >
        {(busy, setBusy) => (
          <AppForm
            busy={busy}
            setBusy={setBusy}
            onClose={() => setRegistering(false)}
            onSaved={(made) => {
              if ('app' in made) showSecret(made);
            }}
          />
        )}
      </FormDialog>
      {asked?.kind === 'edit' ? (
        <FormDialog open={open} title={t('teamApps.edit.title', { app: asked.app.name })} onClose={close}>
          {(busy, setBusy) => (
            <AppForm
              app={asked.app}
              busy={busy}
              setBusy={setBusy}
              onClose={close}
              onSaved={(saved) => {
                if (!('app' in saved)) put(saved);
              }}
              onGone={apps.reload}
            />
          )}
        </FormDialog>
      ) : null}
      {asked?.kind === 'rotate' ? (
        <Confirm
          open={open}
          title={t('teamApps.rotate.title', { app: asked.app.name })}
          text={t('teamApps.rotate.text', { app: asked.app.name })}
          action={t('teamApps.rotate.confirm')}
          onConfirm={() => act((ctx) => rotateTeamAppSecret(ctx, asked.app.clientId), showSecret)}
          onClose={close}
        />
      ) : null}
      {asked?.kind === 'disable' ? (
        <Confirm
          open={open}
          title={t('teamApps.disable.title', { app: asked.app.name })}
          text={t('teamApps.disable.text', { app: asked.app.name })}
          action={t('teamApps.disable.confirm')}
          onConfirm={() =>
            act(
              (ctx) => changeTeamApp(ctx, asked.app.clientId, { disabled: true }),
              putting((saved) => ['teamApps.disable.done', { app: saved.name }]),
            )
          }
          onClose={close}
        />
      ) : null}
      {asked?.kind === 'delete' ? (
        <Confirm
          open={open}
          title={t('teamApps.delete.title', { app: asked.app.name })}
          text={t('teamApps.delete.text', { app: asked.app.name })}
          action={t('teamApps.delete.confirm')}
          onConfirm={() =>
            act(
              (ctx) => deleteTeamApp(ctx, asked.app.clientId),
              dropping(asked.app, ['teamApps.delete.done', { app: asked.app.name }]),
            )
          }
          onClose={close}
          returnFocus={() => registerButton.current}
        />
      ) : null}
      {secret.shown ? (
        <SecretDialog
          shown={secret.shown}
          onClose={secret.dismiss}
          returnFocus={() => registerButton.current}
        />
      ) : null}
    </TeamListPanel>
  );
}

/**
 * The app just registered or given a new secret: its client id and, once only, its secret. A public
 * app has none (it proves itself with PKCE), and says so.
 */
function SecretDialog({ shown, onClose, returnFocus }: ShownOnceProps<TeamAppWithSecret>) {
  const { t } = useTranslation();
  const { app, clientSecret } = shown;
  return (
    <ShownOnceDialog
      title={t(clientSecret ? 'teamApps.secret.title' : 'teamApps.secret.titlePublic', { app: app.name })}
      done={t('teamApps.secret.done')}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      <CopyField
        label={t('teamApps.columns.clientId')}
        value={app.clientId}
        copy={t('teamApps.copy.clientId')}
      />
      {clientSecret ? (
        <>
          <CopyField
            label={t('teamApps.secret.label')}
            value={clientSecret}
            copy={t('teamApps.copy.secret')}
          />
          <Alert tone="info">{t('teamApps.secret.once')}</Alert>
        </>
      ) : (
        <p>{t('teamApps.secret.none')}</p>
      )}
    </ShownOnceDialog>
  );
}

type UriField = 'redirectUris' | 'postLogoutRedirectUris';
const URI_FIELDS: readonly UriField[] = ['redirectUris', 'postLogoutRedirectUris'];

/** The form's problems by field: `name`, `redirectUris` (the list), `redirectUris.1` (an entry). */
export type Problems = Record<string, Said>;

const LOGOUT_URI = 'backchannelLogoutUri';

/**
 * A problem with an address, in words. The back-channel logout URI is the server's to call, so its
 * insecure address is told without the native app's own scheme; the length is the schema's limit.
 */
function uriProblem(field: string, code: string): Said {
  if (code === 'uriTooLong') return ['teamApps.errors.uriTooLong', { n: APP_URI_LIMITS.length }];
  if (field === LOGOUT_URI && code === 'insecureUri') return ['teamApps.errors.insecureLogoutUri'];
  return [`teamApps.errors.${code}`];
}

/** The problems the server would find, found before asking it (the same rule, contract/app-uris.ts). */
export function checkApp(
  draft: { name: string; kind: TeamAppKind; backchannelLogoutUri: string } & Record<UriField, string[]>,
): Problems {
  const problems: Problems = {};
  const name = draft.name.trim();
  if (!name) problems.name = ['teamApps.errors.nameRequired'];
  else if (charCount(name) > LIMITS.name) problems.name = ['teamApps.errors.nameTooLong', { n: LIMITS.name }];
  // Empty: the app has none.
  const logoutUri = LOGOUT_KINDS.has(draft.kind) && draft.backchannelLogoutUri.trim();
  const logoutCode = logoutUri ? logoutUriProblem(draft.backchannelLogoutUri) : null;
  if (logoutCode) problems[LOGOUT_URI] = uriProblem(LOGOUT_URI, logoutCode);
  if (!REDIRECT_KINDS.has(draft.kind)) return problems;
  if (draft.redirectUris.length === 0) problems.redirectUris = ['teamApps.errors.uriRequired'];
  for (const field of URI_FIELDS)
    draft[field].forEach((uri, index) => {
      const code = uri.trim() ? appUriProblem(uri, draft.kind) : 'blankUri';
      if (code) problems[`${field}.${index}`] = uriProblem(field, code);
    });
  return problems;
}

/** A refusal of the server at the field it names, or for the whole form. */
export function refusalProblems(error: unknown): Problems {
  const { code, field } = refusalOf(error);
  const known = [
    'invalidUri',
    'insecureUri',
    'fragmentUri',
    'loopbackLogoutUri',
    'uriRequired',
    'uriNotAllowed',
    'uriTooLong',
  ];
  if (code === 'invalidName' && field) return { [field]: ['teamApps.errors.invalidName'] };
  if (code && field && known.includes(code)) return { [field]: uriProblem(field, code) };
  return { form: failure(error) };
}

/**
 * Register an app (no `app`) or change one: name, kind (registering only), the addresses its kind
 * takes and whether it asks for consent. What was typed stays on a refusal; focus goes to the first
 * field in error.
 */
function AppForm(
  props: InDialogProps & {
    app?: TeamApp;
    onSaved(result: TeamAppWithSecret | TeamApp): void;
    onGone?(): void;
  },
) {
  const { app, busy, onSaved, onClose, onGone } = props;
  const { t } = useTranslation();
  const say = useSay();
  const send = useDialogCall(props);
  const form = useRef<HTMLFormElement>(null);
  const [name, setName] = useState(app?.name ?? '');
  const [kind, setKind] = useState<TeamAppKind>(app?.kind ?? 'web');
  const [uris, setUris] = useState<Record<UriField, string[]>>({
    redirectUris: app ? app.redirectUris : [''],
    postLogoutRedirectUris: app?.postLogoutRedirectUris ?? [],
  });
  const [logoutUri, setLogoutUri] = useState(app?.backchannelLogoutUri ?? '');
  const [thirdParty, setThirdParty] = useState(app?.thirdParty ?? false);
  const [problems, setProblems] = useState<Problems>({});
  const redirects = REDIRECT_KINDS.has(kind);
  const logout = LOGOUT_KINDS.has(kind);

  // The first field in error takes focus, once the errors are on screen.
  useEffect(() => {
    if (Object.keys(problems).length === 0) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-problem]')?.focus();
  }, [problems]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const draft = { name, kind, ...uris, backchannelLogoutUri: logoutUri };
    const found = checkApp(draft);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const addresses = {
      ...(redirects ? uris : { redirectUris: [], postLogoutRedirectUris: [] }),
      // An emptied field takes the address away.
      backchannelLogoutUri: logout && logoutUri.trim() ? logoutUri : null,
    };
    const consent = kind === 'machine' ? false : thirdParty;
    const refused = (error: unknown) => {
      if (gone(error)) onGone?.();
      setProblems(refusalProblems(error));
    };
    if (app)
      await send(
        (ctx) => changeTeamApp(ctx, app.clientId, { name: name.trim(), ...addresses, thirdParty: consent }),
        (saved) => {
          onSaved(saved);
          notify(['teamApps.edit.done', { app: saved.name }]);
        },
        refused,
      );
    else
      await send(
        (ctx) => registerTeamApp(ctx, { name: name.trim(), kind, ...addresses, thirdParty: consent }),
        (made) => {
          onSaved(made);
          notify(['teamApps.register.done', { app: made.app.name }]);
        },
        refused,
      );
  }

  const setUri = (field: UriField, index: number, value: string) =>
    setUris((all) => ({ ...all, [field]: all[field].map((uri, i) => (i === index ? value : uri)) }));
  const addUri = (field: UriField) => {
    setUris((all) => ({ ...all, [field]: [...all[field], ''] }));
    // The new line's field takes focus once it is there.
    setTimeout(() =>
      form.current?.querySelector<HTMLInputElement>(`[name="${field}.${uris[field].length}"]`)?.focus(),
    );
  };
  const removeUri = (field: UriField, index: number) => {
    setUris((all) => ({ ...all, [field]: all[field].filter((_, i) => i !== index) }));
    // Later lines move up: their problems no longer match, and will be checked again.
    setProblems((all) =>
      Object.fromEntries(Object.entries(all).filter(([key]) => !key.startsWith(`${field}.`))),
    );
    setTimeout(() => form.current?.querySelector<HTMLElement>(`[data-add="${field}"]`)?.focus());
  };

  return (
    <form className="stack" noValidate onSubmit={submit} ref={form}>
      <fieldset disabled={busy} className="stack">
        <TextField
          label={t('teamApps.fields.name')}
          name="name"
          autoComplete="off"
          limit={LIMITS.name}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={say(problems.name)}
          autoFocus
        />
        {app ? (
          <p>{t('teamApps.edit.kind', { kind: t(`teamApps.kinds.${app.kind}.name`) })}</p>
        ) : (
          <Choices<TeamAppKind>
            legend={t('teamApps.fields.kind')}
            hint={t('teamApps.fields.kindHint')}
            name="kind"
            choices={APP_KINDS}
            value={kind}
            onChange={setKind}
            text={(choice) => ({
              name: t(`teamApps.kinds.${choice}.name`),
              hint: t(`teamApps.kinds.${choice}.hint`),
            })}
          />
        )}
        {redirects
          ? URI_FIELDS.map((field) => (
              <UriList
                key={field}
                field={field}
                kind={kind}
                values={uris[field]}
                problems={problems}
                onChange={(index, value) => setUri(field, index, value)}
                onAdd={() => addUri(field)}
                onRemove={(index) => removeUri(field, index)}
              />
            ))
          : null}
        {logout ? (
          <TextField
            label={t('teamApps.fields.backchannelLogoutUri')}
            name={LOGOUT_URI}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            value={logoutUri}
            onChange={(event) => setLogoutUri(event.target.value)}
            hint={t('teamApps.fields.backchannelLogoutUriHint')}
            error={say(problems[LOGOUT_URI])}
          />
        ) : null}
        {kind === 'machine' ? null : (
          <Check
            label={t('teamApps.fields.thirdParty')}
            hint={t('teamApps.fields.thirdPartyHint')}
            name="thirdParty"
            checked={thirdParty}
            onChange={setThirdParty}
          />
        )}
        {!redirects && !app ? <p className="hint">{t(`teamApps.kinds.${kind}.noUris`)}</p> : null}
        {problems.form ? <Alert tone="error">{say(problems.form)}</Alert> : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" part="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button" part="button">
            {t(app ? 'teamApps.edit.submit' : 'teamApps.register.submit')}
          </button>
        </div>
      </fieldset>
      {busy ? <LoadingOverlay label={t('common.saving')} /> : null}
    </form>
  );
}

/** A list of addresses, each a labelled field with its own problem and a button taking it out. */
function UriList({
  field,
  kind,
  values,
  problems,
  onChange,
  onAdd,
  onRemove,
}: {
  field: UriField;
  kind: TeamAppKind;
  values: string[];
  problems: Problems;
  onChange(index: number, value: string): void;
  onAdd(): void;
  onRemove(index: number): void;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const id = useId();
  const listProblem = problems[field];
  return (
    <fieldset className="stack tight" aria-describedby={`${id}-hint`}>
      <legend className="check-name">{t(`teamApps.fields.${field}`)}</legend>
      <p className="hint" id={`${id}-hint`}>
        {t(kind === 'native' ? 'teamApps.fields.urisHintNative' : 'teamApps.fields.urisHint')}
      </p>
      {listProblem ? (
        <p className="field-error" id={`${id}-error`} tabIndex={-1} data-problem>
          {say(listProblem)}
        </p>
      ) : null}
      {values.map((value, index) => (
        <div key={index} className="app-uri">
          <TextField
            label={t(`teamApps.fields.${field}One`, { n: index + 1 })}
            name={`${field}.${index}`}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            value={value}
            onChange={(event) => onChange(index, event.target.value)}
            error={say(problems[`${field}.${index}`])}
          />
          <IconButton
            icon="close"
            label={t(`teamApps.fields.${field}Remove`, { n: index + 1 })}
            onClick={() => onRemove(index)}
          />
        </div>
      ))}
      {values.length < APP_URI_LIMITS.count ? (
        <button
          type="button"
          className="button secondary small"
          part="button"
          data-add={field}
          onClick={onAdd}
        >
          {t(`teamApps.fields.${field}Add`)}
        </button>
      ) : null}
    </fieldset>
  );
}
