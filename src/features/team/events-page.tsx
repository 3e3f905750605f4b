import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { listMembers, type Member } from '../../api/members';
import { exportEvents, type AuditKind, type EventExportFormat, type EventFilter } from '../../api/team';
import { AUDIT_KINDS, EVENT_EXPORT_MAX_DAYS } from '../../contract/team-rules';
import { noticesStore } from '../../state/notices';
import { Alert } from '../../ui/alert';
import { useElement } from '../../ui/element-context';
import { AdminPart, MemberSearchField, SEARCH_DELAY_MS, useCall, useDebounced } from './admin-kit';
import { AuditEvents, useAuditPages } from './audit-pages';

/** The events a page of the log shows. */
const EVENTS_PAGE = 25;
/** The members the actor filter lists at once (by name); in a bigger team a search finds the others. */
const ACTORS_MAX = 100;
const DAY_MS = 24 * 3600_000;

/**
 * The team's event log (routes/team-events.ts, docs/decisions/team-event-log.md): every admin action and
 * every security event of its members, newest first, a page at a time, filtered by type, member and
 * dates, and exported for a range as CSV or JSON.
 */
export default function EventsPage() {
  return (
    <AdminPart>
      <EventLog />
    </AdminPart>
  );
}

/**
 * The days the admin picked (`yyyy-mm-dd`, the browser's own days) as the instants the server takes:
 * from the start of the first day to the start of the day after the last. 'bad' when they cross.
 */
export function dayRange(from: string, to: string): { from: string | null; to: string | null } | 'bad' {
  const start = from ? new Date(`${from}T00:00`) : null;
  const end = to ? new Date(`${to}T00:00`) : null;
  if (end) end.setDate(end.getDate() + 1);
  if (start && end && start >= end) return 'bad';
  return { from: start?.toISOString() ?? null, to: end?.toISOString() ?? null };
}

function EventLog() {
  const { t } = useTranslation();
  const { language } = useElement();
  const id = useId();
  const [kind, setKind] = useState<AuditKind | ''>('');
  const [actor, setActor] = useState('');
  // Each "Clear filters" starts the member filter afresh, its search for members included.
  const [cleared, setCleared] = useState(0);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const range = dayRange(from, to);
  const filter: EventFilter | null =
    range === 'bad' ? null : { kind: kind || null, actor: actor || null, ...range };
  const pages = useAuditPages(filter, EVENTS_PAGE);
  const filtered = !!(kind || actor || from || to);

  const when = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <div className="stack">
      <section className="panel" part="card" aria-labelledby={`${id}-title`}>
        <h2 className="panel-title" id={`${id}-title`}>
          {t('events.list')}
        </h2>
        <p className="hint">{t('events.intro')}</p>
        <fieldset className="event-filters">
          <legend className="visually-hidden">{t('events.filters')}</legend>
          <div className="field">
            <label htmlFor={`${id}-kind`}>{t('events.kind')}</label>
            <select
              id={`${id}-kind`}
              value={kind}
              onChange={(event) => setKind(event.target.value as AuditKind | '')}
            >
              <option value="">{t('events.all')}</option>
              {AUDIT_KINDS.map((value) => (
                <option key={value} value={value}>
                  {t(`team.logFilter.${value}`)}
                </option>
              ))}
            </select>
          </div>
          <ActorFilter key={cleared} id={`${id}-actor`} actor={actor} onChange={setActor} />
          {(
            [
              ['from', from, setFrom, { max: to || undefined }],
              ['to', to, setTo, { min: from || undefined }],
            ] as const
          ).map(([name, value, set, bound]) => (
            <div className="field" key={name}>
              <label htmlFor={`${id}-${name}`}>{t(`events.${name}`)}</label>
              <input
                id={`${id}-${name}`}
                type="date"
                value={value}
                {...bound}
                aria-invalid={range === 'bad' || undefined}
                aria-describedby={range === 'bad' ? `${id}-range` : undefined}
                onChange={(event) => set(event.target.value)}
              />
            </div>
          ))}
        </fieldset>
        {range === 'bad' ? (
          <p className="field-error" id={`${id}-range`} role="alert">
            {t('events.badRange')}
          </p>
        ) : null}
        {filtered ? (
          <button
            type="button"
            className="button secondary small"
            part="button"
            onClick={() => {
              setKind('');
              setActor('');
              setCleared((n) => n + 1);
              setFrom('');
              setTo('');
            }}
          >
            {t('events.clear')}
          </button>
        ) : null}
        {range === 'bad' ? null : (
          <AuditEvents
            pages={pages}
            empty={filtered ? t('events.none') : t('events.empty')}
            moreLabel={t('events.more')}
            className="invites audit events"
            labelledBy={`${id}-title`}
            when={(event) => (
              <span className="hint event-when">
                <time dateTime={event.at}>{when.format(new Date(event.at))}</time>
                {event.address ? ` · ${t('events.address', { address: event.address })}` : null}
              </span>
            )}
          />
        )}
      </section>
      <ExportPanel range={range} from={from} to={to} />
    </div>
  );
}

/**
 * The member filter: a select of the team's members, the first ACTORS_MAX by name. When the team has
 * more, a search field above it fills the select with the members it finds instead (by the start of a
 * name or an address, as the users screen searches); the chosen member stays listed either way.
 */
function ActorFilter({ id, actor, onChange }: { id: string; actor: string; onChange(id: string): void }) {
  const { t } = useTranslation();
  const call = useCall();
  const [first, setFirst] = useState<{ members: Member[]; more: boolean } | null>(null);
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), SEARCH_DELAY_MS);
  const [found, setFound] = useState<{ q: string; members: Member[] } | null>(null);
  const [chosen, setChosen] = useState<Member | null>(null);

  useEffect(() => {
    const stop = new AbortController();
    // Without the list the filter offers everyone only.
    call((ctx) => listMembers(ctx, { limit: ACTORS_MAX }, stop.signal)).then(
      (list) => setFirst({ members: list.members, more: list.next !== null }),
      () => undefined,
    );
    return () => stop.abort();
  }, [call]);

  useEffect(() => {
    if (!q) return;
    const stop = new AbortController();
    call((ctx) => listMembers(ctx, { q, limit: ACTORS_MAX }, stop.signal)).then(
      (list) => setFound({ q, members: list.members }),
      () => undefined,
    );
    return () => stop.abort();
  }, [call, q]);

  const results = q && found?.q === q ? found.members : null;
  const listed = (q ? results : first?.members) ?? [];
  const current = actor && chosen?.id === actor ? chosen : null;
  const options = current && !listed.some((m) => m.id === current.id) ? [current, ...listed] : listed;
  return (
    <>
      {first?.more ? (
        <div>
          <MemberSearchField value={text} onChange={setText} />
          {/* The select shows what was found; a search that finds nobody is said on screen too. */}
          <p className={results?.length === 0 ? 'hint' : 'visually-hidden'} role="status">
            {results ? (results.length ? t('groups.add.found', { q }) : t('users.noMatch', { q })) : null}
          </p>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={id}>{t('events.actor')}</label>
        <select
          id={id}
          value={actor}
          onChange={(event) => {
            setChosen(options.find((m) => m.id === event.target.value) ?? null);
            onChange(event.target.value);
          }}
        >
          <option value="">{t('events.anyone')}</option>
          {options.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name} ({member.email})
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** Save a file the browser was given (an export): a link to it, clicked, then let go. */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The export of the range the filters above chose (at most EVENT_EXPORT_MAX_DAYS), as CSV or JSON. */
function ExportPanel({ range, from, to }: { range: ReturnType<typeof dayRange>; from: string; to: string }) {
  const { t } = useTranslation();
  const say = useSay();
  const call = useCall();
  const id = useId();
  const [busy, setBusy] = useState<EventExportFormat | null>(null);
  const [problem, setProblem] = useState<Said | null>(null);

  async function download(format: EventExportFormat) {
    setProblem(null);
    if (range === 'bad' || !range.from || !range.to) return setProblem(['events.export.needRange']);
    if (Date.parse(range.to) - Date.parse(range.from) > EVENT_EXPORT_MAX_DAYS * DAY_MS)
      return setProblem(['events.export.tooLong', { days: EVENT_EXPORT_MAX_DAYS }]);
    const asked = { from: range.from, to: range.to, format };
    setBusy(format);
    try {
      save(await call((ctx) => exportEvents(ctx, asked)), `events-${from}-${to}.${format}`);
      noticesStore.getState().show(['events.export.done'], 'Success');
    } catch {
      setProblem(['events.export.failed']);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="panel" part="card" aria-labelledby={`${id}-title`}>
      <h2 className="panel-title" id={`${id}-title`}>
        {t('events.export.title')}
      </h2>
      <p className="hint" id={`${id}-hint`}>
        {t('events.export.hint', { days: EVENT_EXPORT_MAX_DAYS })}
      </p>
      {problem ? <Alert tone="error">{say(problem)}</Alert> : null}
      <div className="event-export">
        {(['csv', 'json'] as const).map((format) => (
          <button
            key={format}
            type="button"
            className="button secondary"
            part="button"
            aria-describedby={`${id}-hint`}
            disabled={busy !== null}
            onClick={() => void download(format)}
          >
            {busy === format ? t('common.loading') : t(`events.export.${format}`)}
          </button>
        ))}
      </div>
    </section>
  );
}
