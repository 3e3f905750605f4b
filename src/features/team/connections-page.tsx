import { useEffect, useEffectEvent, useId, useRef, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import {
  addTeamConnection,
  changeTeamConnection,
  listTeamConnections,
  removeTeamConnection,
  startConnectionTest,
  type TeamConnection,
  type TeamConnectionDetails,
} from '../../api/connections';
import { appUriProblem } from '../../contract/app-uris';
import { METADATA_MAX_BYTES, METADATA_PROBLEMS } from '../../contract/connections';
import { charCount, LIMITS } from '../../contract/limits';
import { noticesStore } from '../../state/notices';
import { Alert } from '../../ui/alert';
import { FormDialog } from '../../ui/dialog';
import { useElement } from '../../ui/element-context';
import { useSearchParam } from '../../ui/router';
import { TextField } from '../../ui/text-field';
import {
  AdminPart,
  Confirm,
  Choices,
  CopyButton,
  failure,
  IconButton,
  type InDialogProps,
  notify,
  TeamListPanel,
  useAsked,
  useDialogCall,
  useListActions,
  useTeamList,
} from './admin-kit';
import { dayText, refusalOf } from './format';
import { FieldsForm, LITERAL, savedText, useSaveConnection, type DetailsFormProps } from './connection-form';
import { ConnectionOptions } from './connection-options';
import { MappingFacts, MappingForm } from './mapping-form';
import { OidcDetailsForm, OidcFacts } from './oidc-details';
import { OwnerSetupLinks } from './setup-links';

/**
 * The team's single sign-on connections (routes/connections.ts): add one with the steps of its
 * identity provider, give the provider this site's values, test it (a sign-in in a new tab that makes
 * no session and comes back here with what was received, or why it failed), turn it on, remove it;
 * and for the team's owners, the setup links that let their IT contact do all that (setup-links.tsx).
 */
export default function ConnectionsPage() {
  return (
    <AdminPart>
      <Connections />
      <OwnerSetupLinks />
    </AdminPart>
  );
}

type Preset = TeamConnectionDetails['preset'];
const PRESETS: readonly Preset[] = ['okta', 'entra', 'google', 'saml', 'oidc'];
/** A certificate this close to its end is shown as expiring: time to add the next one. */
const EXPIRING_MS = 30 * 24 * 3600_000;

const byName = (a: TeamConnection, b: TeamConnection) => a.name.localeCompare(b.name);

function Connections() {
  const { t } = useTranslation();
  const connections = useTeamList(listTeamConnections, (c) => c.id, byName);
  const [adding, setAdding] = useState(false);
  const { asked, open, ask, close } = useAsked<{
    kind: 'details' | 'mapping' | 'remove';
    connection: TeamConnection;
  }>();
  const addButton = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const { put } = connections;
  const { call, act, actNow, putting, dropping, reloadIfGone } = useListActions(connections);
  // Back from a test sign-in (the provider's answer came here): its result is read out once it shows.
  const tested = useSearchParam('test');
  const testedRow = connections.items?.find((c) => c.id === tested);
  useEffect(() => {
    if (!testedRow?.lastTest) return;
    list.current?.querySelector<HTMLElement>(`[data-test-result="${CSS.escape(testedRow.id)}"]`)?.focus();
  }, [testedRow]);

  // A test's answer lands in a new tab: back in this one, the list is read again to show its result
  // (the only way for an IT contact on a setup link, whose new tab has no session).
  const again = useEffectEvent(() => {
    if (document.visibilityState === 'visible') connections.reload();
  });
  useEffect(() => {
    document.addEventListener('visibilitychange', again);
    return () => document.removeEventListener('visibilitychange', again);
  }, []);

  async function test(connection: TeamConnection) {
    try {
      const url = await call((ctx) => startConnectionTest(ctx, connection.id));
      // The click's user activation still holds: the provider's page opens in a new tab.
      window.open(url, '_blank', 'noopener');
      noticesStore.getState().show(['connections.test.started', { connection: connection.name }], 'Other');
    } catch (problem) {
      reloadIfGone(problem);
      // The provider's configuration could not be read: the row shows why, as a failed test.
      if (refusalOf(problem).code === 'discovery') connections.reload();
      notify(failure(problem), false);
    }
  }

  const [refreshing, setRefreshing] = useState<string | null>(null);
  async function refresh(connection: TeamConnection) {
    if (!connection.metadataUrl || refreshing) return;
    setRefreshing(connection.id);
    try {
      const saved = await call((ctx) =>
        changeTeamConnection(ctx, connection.id, { metadataUrl: connection.metadataUrl! }),
      );
      put(saved);
      notify(savedText(connection, saved, 'connections.metadata.refreshed'));
    } catch (problem) {
      reloadIfGone(problem);
      const { code } = refusalOf(problem);
      notify(isMetadataRefusal(code) ? [`connections.metadata.problems.${code}`] : failure(problem), false);
    } finally {
      setRefreshing(null);
    }
  }

  const turn = (connection: TeamConnection, enabled: boolean) =>
    actNow(
      (ctx) => changeTeamConnection(ctx, connection.id, { enabled }),
      putting((saved) => [
        enabled ? 'connections.enable.done' : 'connections.disable.done',
        { connection: saved.name },
      ]),
      (problem) =>
        refusalOf(problem).code === 'notTested' ? ['connections.enable.untested'] : failure(problem),
    );

  return (
    <TeamListPanel
      name="connections"
      list={connections}
      title={t('connections.title')}
      intro={t('connections.intro')}
      empty={t('connections.none')}
      actionLabel={t('connections.add.open')}
      onAction={() => setAdding(true)}
      buttonRef={addButton}
      listRef={list}
      row={(connection) => (
        <ConnectionRow
          key={connection.id}
          connection={connection}
          onTest={() => void test(connection)}
          onTurn={(enabled) => turn(connection, enabled)}
          onSaved={put}
          refreshing={refreshing === connection.id}
          onRefresh={() => void refresh(connection)}
          onDetails={() => ask({ kind: 'details', connection })}
          onMapping={() => ask({ kind: 'mapping', connection })}
          onRemove={() => ask({ kind: 'remove', connection })}
        />
      )}
    >
      <FormDialog open={adding} title={t('connections.add.title')} onClose={() => setAdding(false)}>
        {(busy, setBusy) => (
          <AddForm busy={busy} setBusy={setBusy} onAdded={put} onClose={() => setAdding(false)} />
        )}
      </FormDialog>
      {asked?.kind === 'details' || asked?.kind === 'mapping' ? (
        <FormDialog
          open={open}
          title={t(asked.kind === 'details' ? 'connections.details.title' : 'connections.mapping.title', {
            connection: asked.connection.name,
          })}
          onClose={close}
        >
          {(busy, setBusy) => {
            const Form =
              asked.kind === 'mapping'
                ? MappingForm
                : asked.connection.protocol === 'oidc'
                  ? OidcDetailsForm
                  : DetailsForm;
            return (
              <Form
                connection={asked.connection}
                busy={busy}
                setBusy={setBusy}
                onSaved={put}
                onClose={close}
              />
            );
          }}
        </FormDialog>
      ) : null}
      {asked?.kind === 'remove' ? (
        <Confirm
          open={open}
          title={t('connections.remove.title', { connection: asked.connection.name })}
          text={t('connections.remove.text', { connection: asked.connection.name })}
          action={t('connections.remove.confirm')}
          onConfirm={() =>
            act(
              (ctx) => removeTeamConnection(ctx, asked.connection.id),
              dropping(asked.connection, ['connections.remove.done', { connection: asked.connection.name }]),
            )
          }
          onClose={close}
          returnFocus={() => addButton.current}
        />
      ) : null}
    </TeamListPanel>
  );
}

/**
 * One connection: its provider and state, this site's values to give the provider (each with a copy
 * button), the certificates with their end dates, the last test's result, and what can be done.
 */
function ConnectionRow({
  connection,
  onTest,
  onTurn,
  onDetails,
  onMapping,
  onRemove,
  onSaved,
  refreshing,
  onRefresh,
}: {
  connection: TeamConnection;
  onSaved(connection: TeamConnection): void;
  onTest(): void;
  onTurn(enabled: boolean): void;
  onDetails(): void;
  onMapping(): void;
  onRemove(): void;
  /** Its details are being read again from the provider's metadata. */
  refreshing: boolean;
  onRefresh(): void;
}) {
  const { t } = useTranslation();
  const { language } = useElement();
  const untestedId = useId();
  const incompleteId = useId();
  const { name, serviceProvider: sp } = connection;
  const preset = connection.preset === 'oidc' ? 'saml' : connection.preset;
  const oidc = connection.protocol === 'oidc';
  const complete = oidc
    ? Boolean(connection.issuer && connection.clientId && connection.hasClientSecret)
    : Boolean(connection.idpEntityId && connection.ssoUrl && connection.certificates.length);
  const values = oidc
    ? ([['redirectUri', sp.redirectUri]] as const)
    : ([
        ['acsUrl', sp.acsUrl],
        ['entityId', sp.entityId],
        ['metadataUrl', sp.metadataUrl],
      ] as const);
  return (
    <li className="member">
      <div className="member-who">
        <span className="member-name">{name}</span>
        <span className="member-email">{t(`connections.presets.${connection.preset}.name`)}</span>
        <span className={connection.enabled ? 'badge' : 'badge warning'}>
          {t(connection.enabled ? 'connections.state.on' : 'connections.state.off')}
        </span>
      </div>
      <div className="member-actions">
        <IconButton
          icon="delete"
          label={t('connections.remove.action', { connection: name })}
          onClick={onRemove}
        />
      </div>
      <div className="member-note stack tight">
        <h3 className="group-name">{t('connections.values.heading')}</h3>
        <p>{t('connections.values.intro')}</p>
        <dl className="member-facts domain-record">
          {values.map(([key, value]) => (
            <div key={key}>
              <dt>{t(`connections.values.${key}`)}</dt>
              <dd className="app-client-id">
                <code>{value}</code>
                <CopyButton
                  value={value}
                  label={t('connections.values.copy', {
                    value: t(`connections.values.${key}`),
                    connection: name,
                  })}
                />
              </dd>
            </div>
          ))}
        </dl>
        <h3 className="group-name">{t('connections.details.heading')}</h3>
        {complete && oidc ? (
          <OidcFacts connection={connection} />
        ) : complete ? (
          <>
            <dl className="member-facts domain-record">
              <div>
                <dt>{t(`connections.presets.${preset}.idpEntityId`)}</dt>
                <dd>
                  <code>{connection.idpEntityId}</code>
                </dd>
              </div>
              <div>
                <dt>{t(`connections.presets.${preset}.ssoUrl`)}</dt>
                <dd>
                  <code>{connection.ssoUrl}</code>
                </dd>
              </div>
              {connection.metadataUrl ? (
                <div>
                  <dt>{t('connections.fields.metadataUrl')}</dt>
                  <dd>
                    <code>{connection.metadataUrl}</code>
                  </dd>
                </div>
              ) : null}
            </dl>
            <ul
              className="certificates stack tight"
              aria-label={t('connections.certificates.label', { connection: name })}
            >
              {connection.certificates.map((cert) => (
                <li
                  key={cert.fingerprint}
                  className={certificateWarning(cert.notAfter) ? 'domain-problem' : undefined}
                >
                  {t(certificateText(cert.notAfter), {
                    subject: cert.subject,
                    date: dayText(cert.notAfter, language),
                  })}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="hint" id={incompleteId}>
            {t('connections.details.missing')}
          </p>
        )}
        <div>
          <button
            type="button"
            className="button secondary small"
            part="button"
            aria-label={t(complete ? 'connections.details.change' : 'connections.details.enter', {
              connection: name,
            })}
            onClick={onDetails}
          >
            {t(complete ? 'connections.details.changeShort' : 'connections.details.enterShort')}
          </button>
          {connection.metadataUrl ? (
            <>
              {' '}
              <button
                type="button"
                className="button secondary small"
                part="button"
                aria-label={t(
                  refreshing ? 'connections.metadata.refreshing' : 'connections.metadata.refreshAction',
                  { connection: name },
                )}
                aria-disabled={refreshing ? true : undefined}
                aria-busy={refreshing ? true : undefined}
                onClick={refreshing ? undefined : onRefresh}
              >
                {t(refreshing ? 'connections.metadata.refreshingShort' : 'connections.metadata.refresh')}
              </button>
            </>
          ) : null}
        </div>
        <h3 className="group-name">{t('connections.mapping.heading')}</h3>
        <MappingFacts connection={connection} />
        <div>
          <button
            type="button"
            className="button secondary small"
            part="button"
            aria-label={t('connections.mapping.change', { connection: name })}
            onClick={onMapping}
          >
            {t('connections.mapping.changeShort')}
          </button>
        </div>
        <TestResult connection={connection} language={language} t={t} />
        <div className="dialog-actions start">
          <button
            type="button"
            className="button secondary small"
            part="button"
            aria-label={t('connections.test.action', { connection: name })}
            aria-disabled={complete ? undefined : true}
            aria-describedby={complete ? undefined : incompleteId}
            onClick={complete ? onTest : undefined}
          >
            {t('connections.test.open')}
          </button>
          {connection.enabled ? (
            <button
              type="button"
              className="button secondary small"
              part="button"
              aria-label={t('connections.disable.action', { connection: name })}
              onClick={() => onTurn(false)}
            >
              {t('connections.disable.open')}
            </button>
          ) : (
            <button
              type="button"
              className="button small"
              part="button"
              aria-label={t('connections.enable.action', { connection: name })}
              aria-disabled={connection.testedAt ? undefined : true}
              aria-describedby={connection.testedAt ? undefined : untestedId}
              onClick={connection.testedAt ? () => onTurn(true) : undefined}
            >
              {t('connections.enable.open')}
            </button>
          )}
        </div>
        {connection.testedAt || connection.enabled ? null : (
          <p className="hint" id={untestedId}>
            {t('connections.enable.untested')}
          </p>
        )}
        <ConnectionOptions connection={connection} onSaved={onSaved} />
      </div>
    </li>
  );
}

const certificateWarning = (notAfter: string) => Date.parse(notAfter) - Date.now() < EXPIRING_MS;
const certificateText = (notAfter: string) =>
  Date.parse(notAfter) <= Date.now()
    ? 'connections.certificates.expired'
    : certificateWarning(notAfter)
      ? 'connections.certificates.expiring'
      : 'connections.certificates.valid';

/** The last test: what was received, or exactly why it failed. Focusable: a returning test lands here. */
function TestResult({
  connection,
  language,
  t,
}: {
  connection: TeamConnection;
  language: string;
  t: TFunction;
}) {
  const test = connection.lastTest;
  const props = { 'data-test-result': connection.id, tabIndex: -1 };
  if (!test)
    return (
      <p className="hint" {...props}>
        {t('connections.test.never')}
      </p>
    );
  const date = dayText(test.at, language);
  if (!test.ok || !test.claims)
    return (
      <Alert tone="error">
        <p {...props}>
          {t('connections.test.failed', { date })} {t(`connections.problems.${test.problem ?? 'malformed'}`)}
        </p>
      </Alert>
    );
  const { claims } = test;
  const fullName = [claims.givenName, claims.familyName].filter(Boolean).join(' ');
  return (
    <div className="stack tight">
      <p {...props}>{t('connections.test.passed', { date })}</p>
      <dl className="member-facts">
        <div>
          <dt>{t('connections.claims.email')}</dt>
          <dd>{claims.email}</dd>
        </div>
        <div>
          <dt>{t('connections.claims.name')}</dt>
          <dd>{fullName || t('connections.claims.none')}</dd>
        </div>
        <div>
          <dt>{t('connections.claims.groups')}</dt>
          <dd>{claims.groups.length ? claims.groups.join(', ') : t('connections.claims.none')}</dd>
        </div>
      </dl>
    </div>
  );
}

type Field =
  'name' | 'idpEntityId' | 'ssoUrl' | 'certificate' | 'nextCertificate' | 'metadataUrl' | 'metadataXml';
const REFUSALS = ['invalidName', 'invalidUri', 'insecureUri', 'fragmentUri', 'invalidCertificate'];

/** A refusal of the provider's metadata: why it could not be fetched or read, or given with the details. */
const isMetadataRefusal = (code: string | undefined): code is string =>
  code === 'mixedDetails' || (METADATA_PROBLEMS as readonly (string | undefined)[]).includes(code);

/** How the admin gives the provider's details. */
type Source = 'url' | 'xml' | 'hand';
const SOURCES: readonly Source[] = ['url', 'xml', 'hand'];

/** A refusal of the server at the field it names (`certificates.1`: the next certificate's). */
function refusalAt(error: unknown): Partial<Record<Field | 'form', Said>> {
  const { code, field } = refusalOf(error);
  if ((field === 'metadataUrl' || field === 'metadataXml') && isMetadataRefusal(code))
    return { [field]: [`connections.metadata.problems.${code}`] };
  const at: Field | undefined =
    field === 'certificates.0'
      ? 'certificate'
      : field?.startsWith('certificates')
        ? 'nextCertificate'
        : (field as Field | undefined);
  if (code && at && REFUSALS.includes(code)) return { [at]: [`connections.errors.${code}`] };
  return { form: failure(error) };
}

/**
 * Add a connection: which identity provider (with its steps) and a name. The provider asks for this
 * site's values first; its own details are entered next, on the connection.
 */
function AddForm(props: InDialogProps & { onAdded(connection: TeamConnection): void }) {
  const { busy, onAdded, onClose } = props;
  const { t } = useTranslation();
  const say = useSay();
  const send = useDialogCall(props);
  const [preset, setPreset] = useState<Preset>('okta');
  const [name, setName] = useState('');
  const [problems, setProblems] = useState<Partial<Record<Field | 'form', Said>>>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = name.trim();
    const problem: Said | null = !text
      ? ['connections.errors.nameRequired']
      : charCount(text) > LIMITS.name
        ? ['connections.errors.nameTooLong', { n: LIMITS.name }]
        : null;
    setProblems(problem ? { name: problem } : {});
    if (problem) return;
    await send(
      (ctx) => addTeamConnection(ctx, { preset, name: text }),
      (added) => {
        onAdded(added);
        notify(['connections.add.done', { connection: added.name }]);
      },
      (error) => setProblems(refusalAt(error)),
    );
  }

  return (
    <FieldsForm
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={t('connections.add.submit')}
      problems={problems}
    >
      <Choices<Preset>
        legend={t('connections.add.provider')}
        name="preset"
        choices={PRESETS}
        value={preset}
        onChange={setPreset}
        text={(choice) => ({
          name: t(`connections.presets.${choice}.name`),
          hint: t(`connections.presets.${choice}.steps`),
        })}
      />
      <TextField
        label={t('connections.fields.name')}
        hint={t('connections.fields.nameHint')}
        name="name"
        autoComplete="off"
        limit={LIMITS.name}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={say(problems.name)}
        autoFocus
      />
    </FieldsForm>
  );
}

/**
 * The provider's details, given one of three ways: its metadata's address (the server reads it now,
 * and again on each refresh), its metadata pasted, or typed in the provider's own words — its entity
 * ID, its sign-on URL and the certificate it signs with, and the next one while it rotates. What was
 * typed stays on a refusal, in every way of giving them.
 */
function DetailsForm(props: DetailsFormProps) {
  const { connection, busy, onClose } = props;
  const { t } = useTranslation();
  const say = useSay();
  const save = useSaveConnection(props);
  const preset = connection.preset === 'oidc' ? 'saml' : connection.preset;
  const [source, setSource] = useState<Source>(connection.metadataUrl ? 'url' : 'hand');
  const [draft, setDraft] = useState<Record<Exclude<Field, 'name'>, string>>({
    idpEntityId: connection.idpEntityId ?? '',
    ssoUrl: connection.ssoUrl ?? '',
    certificate: connection.certificates[0]?.pem ?? '',
    nextCertificate: connection.certificates[1]?.pem ?? '',
    metadataUrl: connection.metadataUrl ?? '',
    metadataXml: '',
  });
  const [problems, setProblems] = useState<Partial<Record<Field | 'form', Said>>>({});
  const set = (field: keyof typeof draft, value: string) => setDraft((all) => ({ ...all, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = checkDetails(draft, source);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const change =
      source === 'url'
        ? { metadataUrl: draft.metadataUrl.trim() }
        : source === 'xml'
          ? { metadataXml: draft.metadataXml }
          : {
              idpEntityId: draft.idpEntityId.trim(),
              ssoUrl: draft.ssoUrl.trim(),
              certificates: [draft.certificate, draft.nextCertificate].filter((pem) => pem.trim()),
            };
    await save(change, 'connections.details.done', (error) => setProblems(refusalAt(error)));
  }

  const label = (field: 'idpEntityId' | 'ssoUrl') => t(`connections.presets.${preset}.${field}`);
  const submitLabel = source === 'hand' ? t('connections.details.submit') : t('connections.metadata.read');
  return (
    <FieldsForm
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      problems={problems}
      actions={
        // The metadata is fetched and read when this is pressed: it says so while it works.
        <button type="submit" className="button" part="button" aria-busy={busy ? true : undefined}>
          {busy && source !== 'hand' ? t('connections.metadata.reading') : submitLabel}
        </button>
      }
    >
      <Choices<Source>
        legend={t('connections.source.legend')}
        name="source"
        choices={SOURCES}
        value={source}
        autoFocus
        onChange={(choice) => {
          setSource(choice);
          setProblems({});
        }}
        text={(choice) => ({
          name: t(`connections.source.${choice}`),
          hint: t(`connections.source.${choice}Hint`),
        })}
      />
      {source === 'url' ? (
        <TextField
          label={t('connections.fields.metadataUrl')}
          hint={t('connections.fields.metadataUrlHint')}
          name="metadataUrl"
          type="url"
          {...LITERAL}
          value={draft.metadataUrl}
          onChange={(event) => set('metadataUrl', event.target.value)}
          error={say(problems.metadataUrl)}
        />
      ) : source === 'xml' ? (
        <PastedField
          label={t('connections.fields.metadataXml')}
          hint={t('connections.fields.metadataXmlHint')}
          rows={8}
          value={draft.metadataXml}
          error={say(problems.metadataXml)}
          onChange={(value) => set('metadataXml', value)}
        />
      ) : (
        <>
          <p className="hint">{t(`connections.presets.${preset}.details`)}</p>
          <TextField
            label={label('idpEntityId')}
            name="idpEntityId"
            {...LITERAL}
            value={draft.idpEntityId}
            onChange={(event) => set('idpEntityId', event.target.value)}
            error={say(problems.idpEntityId)}
          />
          <TextField
            label={label('ssoUrl')}
            name="ssoUrl"
            type="url"
            {...LITERAL}
            value={draft.ssoUrl}
            onChange={(event) => set('ssoUrl', event.target.value)}
            error={say(problems.ssoUrl)}
          />
          <PastedField
            label={t('connections.fields.certificate')}
            hint={t('connections.fields.certificateHint')}
            value={draft.certificate}
            error={say(problems.certificate)}
            onChange={(value) => set('certificate', value)}
          />
          <PastedField
            label={t('connections.fields.nextCertificate')}
            hint={t('connections.fields.nextCertificateHint')}
            value={draft.nextCertificate}
            error={say(problems.nextCertificate)}
            onChange={(value) => set('nextCertificate', value)}
          />
        </>
      )}
    </FieldsForm>
  );
}

/** Pasted text (a certificate, metadata), labelled, monospace, with its hint and error wired to it. */
function PastedField({
  label,
  hint,
  value,
  error,
  rows = 4,
  onChange,
}: {
  label: string;
  hint: string;
  value: string;
  error?: string;
  rows?: number;
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="certificate-text"
        rows={rows}
        spellCheck={false}
        dir="ltr"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The problems the server would find first, found before asking it, for the way the details are given. */
function checkDetails(
  draft: Record<Exclude<Field, 'name'>, string>,
  source: Source,
): Partial<Record<Field, Said>> {
  const problems: Partial<Record<Field, Said>> = {};
  if (source === 'url') {
    const url = draft.metadataUrl.trim();
    if (!url) problems.metadataUrl = ['connections.errors.required'];
    else if (!/^https?:\/\/[^/]/i.test(url))
      problems.metadataUrl = ['connections.metadata.problems.invalidUrl'];
    return problems;
  }
  if (source === 'xml') {
    if (!draft.metadataXml.trim()) problems.metadataXml = ['connections.errors.required'];
    else if (new TextEncoder().encode(draft.metadataXml).length > METADATA_MAX_BYTES)
      problems.metadataXml = ['connections.metadata.problems.tooLarge'];
    return problems;
  }
  if (!draft.idpEntityId.trim()) problems.idpEntityId = ['connections.errors.required'];
  const url = draft.ssoUrl.trim();
  const urlProblem = url ? appUriProblem(url, 'web') : null;
  if (!url) problems.ssoUrl = ['connections.errors.required'];
  else if (urlProblem) problems.ssoUrl = [`connections.errors.${urlProblem}`];
  if (!draft.certificate.trim()) problems.certificate = ['connections.errors.required'];
  return problems;
}
