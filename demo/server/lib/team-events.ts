import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { TeamEvent } from '../../../src/contract/team-events';
import type { AuditRepository } from '../db/audit';
import type { AuditEventsTable } from '../db/schema';

/** The stored row as the event leaves the server (export and streaming). */
export function toTeamEvent(row: AuditEventsTable): TeamEvent {
  return {
    id: row.id,
    type: row.action,
    time: new Date(row.created_at).toISOString(),
    actor: row.actor_id === null ? null : { id: row.actor_id, name: row.actor_name, email: row.actor_email },
    target: row.target,
    address: row.address,
    requestId: row.request_id,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
  };
}

export const INVALID_RANGE = {
  message: 'the range must be two instants, the first before the second',
  code: 'invalidRange',
} as const;

/** A range of ISO 8601 instants as [from, to) in milliseconds; null when one is not a date or they cross. */
export function rangeOf(from?: string, to?: string): { from?: number; to?: number } | null {
  const start = from === undefined ? undefined : Date.parse(from);
  const end = to === undefined ? undefined : Date.parse(to);
  if (Number.isNaN(start) || Number.isNaN(end)) return null;
  if (start !== undefined && end !== undefined && start >= end) return null;
  return { from: start, to: end };
}

/** Rows read from the database at a time while exporting: memory stays bounded by this, not the range. */
const EXPORT_BATCH = 500;

/** The team's events in [from, to), newest first, read a batch at a time. */
async function* eventsIn(
  audit: AuditRepository,
  teamId: string,
  from: number,
  to: number,
): AsyncGenerator<TeamEvent> {
  let before: string | undefined;
  do {
    const page = await audit.page(teamId, EXPORT_BATCH, { from, to, before });
    for (const row of page.events) yield toTeamEvent(row);
    before = page.next ?? undefined;
  } while (before !== undefined);
}

/** The CSV columns: the fields of `TeamEvent`, the actor and detail flattened. */
const CSV_COLUMNS = [
  'id',
  'type',
  'time',
  'actor_id',
  'actor_name',
  'actor_email',
  'target',
  'address',
  'request_id',
  'detail',
] as const;

/**
 * The export as a stream, so a big team's year costs a batch of memory. CSV per RFC 4180 by
 * csv-stringify, with every cell that a spreadsheet would take for a formula (= + - @, tab, CR) prefixed
 * with a quote, as OWASP advises; JSON as one array of `TeamEvent`.
 */
export function exportStream(
  audit: AuditRepository,
  teamId: string,
  range: { from: number; to: number },
  format: 'csv' | 'json',
): Readable {
  const events = eventsIn(audit, teamId, range.from, range.to);
  if (format === 'json') {
    return Readable.from(
      (async function* () {
        let first = true;
        yield '[';
        for await (const event of events) {
          yield (first ? '\n' : ',\n') + JSON.stringify(event);
          first = false;
        }
        yield first ? ']\n' : '\n]\n';
      })(),
    );
  }
  const rows = Readable.from(
    (async function* () {
      for await (const event of events) {
        yield [
          event.id,
          event.type,
          event.time,
          event.actor?.id ?? '',
          event.actor?.name ?? '',
          event.actor?.email ?? '',
          event.target,
          event.address ?? '',
          event.requestId ?? '',
          JSON.stringify(event.detail),
        ];
      }
    })(),
  );
  const csv = stringify({
    header: true,
    columns: [...CSV_COLUMNS],
    escape_formulas: true,
    record_delimiter: '\r\n',
  });
  rows.on('error', (error) => csv.destroy(error));
  return rows.pipe(csv);
}
