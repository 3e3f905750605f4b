import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import {
  addTeamDomain,
  listTeamDomains,
  removeTeamDomain,
  setDomainAutoJoin,
  setDomainSignIn,
  verifyTeamDomain,
  type TeamDomain,
} from '../../api/domains';
import { listTeamConnections, type TeamConnection } from '../../api/connections';
import { DOMAIN_GRACE_MS, normalDomain } from '../../contract/domains';
import { DialogForm, FormDialog } from '../../ui/dialog';
import { useElement } from '../../ui/element-context';
import { TextField } from '../../ui/text-field';
import {
  AdminPart,
  Check,
  Confirm,
  CopyButton,
  failure,
  IconButton,
  type InDialogProps,
  notify,
  SaveButton,
  SaveProblem,
  TeamListPanel,
  useAsked,
  useCall,
  useDialogCall,
  useFieldProblem,
  useListActions,
  useSaveInPlace,
  useTeamList,
} from './admin-kit';
import { dayText, lastTime, refusalOf } from './format';

/**
 * The team's e-mail domains (routes/domains.ts): add one, publish the DNS record the screen shows,
 * verify it, remove it. A verified domain is what later routes its addresses' sign-ins to the team's
 * identity provider; the server re-checks every record daily by itself.
 */
export default function DomainsPage() {
  return (
    <AdminPart>
      <Domains />
    </AdminPart>
  );
}

/** The refusals of an added domain the screen puts in words at its field. */
const ADD_REFUSALS = ['invalidDomain', 'publicDomain', 'domainTaken'];

const byName = (a: TeamDomain, b: TeamDomain) => a.domain.localeCompare(b.domain);

/** Whether the record is worth looking up now: not yet proven, or proven and now missing. */
const checkable = (domain: TeamDomain) => domain.state !== 'verified' || domain.missingSince !== null;

function Domains() {
  const { t } = useTranslation();
  const domains = useTeamList(listTeamDomains, (d) => d.domain, byName);
  const [adding, setAdding] = useState(false);
  const { asked: removing, open, ask, close } = useAsked<TeamDomain>();
  const [checking, setChecking] = useState<ReadonlySet<string>>(new Set());
  const addButton = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const { put } = domains;
  // What was acted on is gone (removed in another tab): the list follows.
  const { call, act, dropping, reloadIfGone } = useListActions(domains);
  // The connections a verified domain may sign in through (none yet: the row says where to add one).
  const [connections, setConnections] = useState<TeamConnection[] | null>(null);
  useEffect(() => {
    const stop = new AbortController();
    call((ctx) => listTeamConnections(ctx, stop.signal)).then(setConnections, () => {
      if (!stop.signal.aborted) setConnections([]);
    });
    return () => stop.abort();
  }, [call]);

  async function verify(domain: TeamDomain) {
    setChecking((all) => new Set(all).add(domain.domain));
    try {
      const now = await call((ctx) => verifyTeamDomain(ctx, domain.domain));
      put(now);
      const proven = !checkable(now);
      notify([proven ? 'domains.verify.done' : 'domains.verify.notYet', { domain: now.domain }], proven);
      // The Verify button is gone: focus stays in the row, on its name.
      if (proven)
        setTimeout(() =>
          list.current?.querySelector<HTMLElement>(`[data-domain="${CSS.escape(now.domain)}"]`)?.focus(),
        );
    } catch (problem) {
      reloadIfGone(problem);
      const taken = refusalOf(problem).code === 'domainTaken';
      notify(taken ? ['domains.verify.taken', { domain: domain.domain }] : failure(problem), false);
    } finally {
      setChecking((all) => {
        const left = new Set(all);
        left.delete(domain.domain);
        return left;
      });
    }
  }

  return (
    <TeamListPanel
      name="domains"
      list={domains}
      title={t('domains.title')}
      intro={t('domains.intro')}
      empty={t('domains.none')}
      actionLabel={t('domains.add.open')}
      onAction={() => setAdding(true)}
      buttonRef={addButton}
      listRef={list}
      row={(domain) => (
        <DomainRow
          key={domain.domain}
          domain={domain}
          checking={checking.has(domain.domain)}
          connections={connections}
          onSaved={put}
          onVerify={() => void verify(domain)}
          onRemove={() => ask(domain)}
        />
      )}
    >
      <FormDialog open={adding} title={t('domains.add.title')} onClose={() => setAdding(false)}>
        {(busy, setBusy) => (
          <AddForm
            busy={busy}
            setBusy={setBusy}
            known={domains.items ?? []}
            onAdded={put}
            onClose={() => setAdding(false)}
          />
        )}
      </FormDialog>
      {removing ? (
        <Confirm
          open={open}
          title={t('domains.remove.title', { domain: removing.domain })}
          text={t('domains.remove.text', { domain: removing.domain })}
          action={t('domains.remove.confirm')}
          onConfirm={() =>
            act(
              (ctx) => removeTeamDomain(ctx, removing.domain),
              dropping(removing, ['domains.remove.done', { domain: removing.domain }]),
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
 * One domain: its state in words, and until it is proven the TXT record to publish (each part with a
 * copy button), what the last lookup found wrong and the button that looks again.
 */
function DomainRow({
  domain,
  checking,
  connections,
  onSaved,
  onVerify,
  onRemove,
}: {
  domain: TeamDomain;
  checking: boolean;
  connections: TeamConnection[] | null;
  onSaved(domain: TeamDomain): void;
  onVerify(): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const { language } = useElement();
  const name = domain.domain;
  const warn = domain.state === 'failed' || domain.state === 'unverified' || domain.missingSince !== null;
  return (
    <li className="member">
      <div className="member-who">
        <span className="member-name" data-domain={name} tabIndex={-1}>
          {name}
        </span>
        <span className={warn ? 'badge warning' : 'badge'}>{t(`domains.state.${domain.state}`)}</span>
      </div>
      <div className="member-actions">
        <IconButton icon="delete" label={t('domains.remove.action', { domain: name })} onClick={onRemove} />
      </div>
      <div className="member-note stack tight">
        <p>{stateText(domain, language, t)}</p>
        {checkable(domain) ? (
          <>
            <p>{t('domains.record.intro')}</p>
            <dl className="member-facts domain-record">
              <div>
                <dt>{t('domains.record.type')}</dt>
                <dd>
                  <code>TXT</code>
                </dd>
              </div>
              <div>
                <dt>{t('domains.record.name')}</dt>
                <dd className="app-client-id">
                  <code>{domain.recordName}</code>
                  <CopyButton value={domain.recordName} label={t('domains.copy.name', { domain: name })} />
                </dd>
              </div>
              <div>
                <dt>{t('domains.record.value')}</dt>
                <dd className="app-client-id">
                  <code>{domain.recordValue}</code>
                  <CopyButton value={domain.recordValue} label={t('domains.copy.value', { domain: name })} />
                </dd>
              </div>
            </dl>
            {domain.lastProblem && domain.checkedAt ? (
              <p className="domain-problem">
                {t(`domains.problems.${domain.lastProblem}`)}{' '}
                {t('domains.checked', { time: lastTime(domain.checkedAt, language, t) })}
              </p>
            ) : null}
            <div>
              <button
                type="button"
                className="button secondary small"
                part="button"
                aria-label={t('domains.verify.action', { domain: name })}
                aria-disabled={checking || undefined}
                onClick={checking ? undefined : onVerify}
              >
                {checking ? t('domains.verify.busy') : t('domains.verify.open')}
              </button>
            </div>
          </>
        ) : null}
        {domain.state === 'verified' && connections ? (
          <DomainSignIn domain={domain} connections={connections} onSaved={onSaved} />
        ) : null}
        {domain.state === 'verified' ? <DomainAutoJoin domain={domain} onSaved={onSaved} /> : null}
      </div>
    </li>
  );
}

/**
 * How a verified domain's addresses sign in: through which of the team's connections (routing starts
 * once it is on), and whether only so — the team's owners keep their other ways in.
 */
function DomainSignIn({
  domain,
  connections,
  onSaved,
}: {
  domain: TeamDomain;
  connections: TeamConnection[];
  onSaved(domain: TeamDomain): void;
}) {
  const { t } = useTranslation();
  const call = useCall();
  const id = useId();
  const name = domain.domain;
  const [connectionId, setConnectionId] = useState(domain.connectionId ?? '');
  const [required, setRequired] = useState(domain.requireSso);
  const { busy, error, saveChange } = useSaveInPlace();
  const chosen = connections.find((connection) => connection.id === connectionId);
  const changed =
    connectionId !== (domain.connectionId ?? '') || (!!chosen && required) !== domain.requireSso;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!changed) return;
    await saveChange(async () => {
      const saved = await call((ctx) =>
        setDomainSignIn(ctx, name, { connectionId: chosen?.id ?? null, requireSso: !!chosen && required }),
      );
      onSaved(saved);
      notify(['domains.signIn.done', { domain: name }]);
    });
  }

  if (connections.length === 0) return <p className="hint">{t('domains.signIn.noConnections')}</p>;
  return (
    <form className="stack tight domain-sign-in" onSubmit={(event) => void save(event)}>
      <fieldset className="stack tight">
        <legend className="check-name">{t('domains.signIn.legend', { domain: name })}</legend>
        {/* The label beside the select, not around it: its name is the label's words alone. */}
        <div className="audit-filter">
          <label htmlFor={`${id}-connection`}>{t('domains.signIn.connection')}</label>
          <select
            id={`${id}-connection`}
            value={connectionId}
            onChange={(event) => setConnectionId(event.target.value)}
          >
            <option value="">{t('domains.signIn.none')}</option>
            {connections.map((connection) => (
              <option key={connection.id} value={connection.id}>
                {connection.name}
              </option>
            ))}
          </select>
        </div>
        {chosen && !chosen.enabled ? (
          <p className="hint">{t('domains.signIn.inactive', { connection: chosen.name, domain: name })}</p>
        ) : null}
        <Check
          label={t('domains.signIn.require')}
          hint={t('domains.signIn.requireHint', { domain: name })}
          checked={!!chosen && required}
          disabled={!chosen}
          onChange={setRequired}
        />
        <SaveProblem error={error} />
        <SaveButton
          busy={busy}
          changed={changed}
          label={t('domains.signIn.saveLabel', { domain: name })}
          text={t('domains.signIn.save')}
        />
      </fieldset>
    </form>
  );
}

/**
 * Whether people at a verified domain who ask to join (from the team step, their address proven by a
 * mailed code) are invited without an admin's approval — a seat still taken; with none free their
 * request waits. Saved as it is ticked.
 */
function DomainAutoJoin({ domain, onSaved }: { domain: TeamDomain; onSaved(domain: TeamDomain): void }) {
  const { t } = useTranslation();
  const call = useCall();
  const name = domain.domain;
  const { busy, error, saveChange } = useSaveInPlace();

  const toggle = (autoJoin: boolean) =>
    saveChange(async () => {
      onSaved(await call((ctx) => setDomainAutoJoin(ctx, name, autoJoin)));
      notify([autoJoin ? 'domains.autoJoin.on' : 'domains.autoJoin.off', { domain: name }]);
    });

  return (
    <div className="stack tight">
      <Check
        label={t('domains.autoJoin.label')}
        hint={t('domains.autoJoin.hint', { domain: name })}
        checked={domain.autoJoin}
        busy={busy}
        onChange={(autoJoin) => void toggle(autoJoin)}
      />
      <SaveProblem error={error} />
    </div>
  );
}

/** What the domain's state means now, with its dates. */
function stateText(domain: TeamDomain, language: string, t: TFunction): string {
  const day = (iso: string) => dayText(iso, language);
  if (domain.state === 'verified' && domain.missingSince && domain.verifiedAt)
    return t('domains.detail.missing', {
      since: day(domain.missingSince),
      until: day(new Date(Date.parse(domain.missingSince) + DOMAIN_GRACE_MS).toISOString()),
    });
  if (domain.state === 'verified' && domain.verifiedAt)
    return t('domains.detail.verified', { date: day(domain.verifiedAt) });
  if (domain.state === 'pending' && domain.expiresAt)
    return t('domains.detail.pending', { date: day(domain.expiresAt) });
  return t(`domains.detail.${domain.state === 'unverified' ? 'unverified' : 'failed'}`);
}

/**
 * Add a domain: checked by the server's own rule first (contract/domains.ts), and one the team has
 * already is told without asking; the server's refusal shows at the field, what was typed kept.
 */
function AddForm(props: InDialogProps & { known: readonly TeamDomain[]; onAdded(domain: TeamDomain): void }) {
  const { busy, known, onAdded, onClose } = props;
  const { t } = useTranslation();
  const say = useSay();
  const send = useDialogCall(props);
  const [text, setText] = useState('');
  const { problem, setProblem, field } = useFieldProblem();
  const [formError, setFormError] = useState<Said | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const domain = normalDomain(text);
    const found = !text.trim()
      ? 'required'
      : !domain
        ? 'invalidDomain'
        : known.some((d) => d.domain === domain)
          ? 'alreadyAdded'
          : null;
    setProblem(found && { text: [`domains.errors.${found}`] });
    if (found) return;
    await send(
      (ctx) => addTeamDomain(ctx, text),
      (added) => {
        onAdded(added);
        notify(['domains.add.done', { domain: added.domain }]);
      },
      (error) => {
        const { code, field: at } = refusalOf(error);
        if (at === 'domain' && code && ADD_REFUSALS.includes(code))
          setProblem({ text: [`domains.errors.${code}`] });
        else setFormError(failure(error));
      },
    );
  }

  return (
    <DialogForm
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={t('domains.add.submit')}
      error={say(formError)}
    >
      <TextField
        label={t('domains.add.field')}
        hint={t('domains.add.hint')}
        name="domain"
        inputMode="url"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        dir="ltr"
        inputRef={field}
        value={text}
        onChange={(event) => setText(event.target.value)}
        error={say(problem?.text)}
        autoFocus
      />
    </DialogForm>
  );
}
