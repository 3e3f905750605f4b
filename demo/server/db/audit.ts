import type { Kysely } from 'kysely';
import type { AuditAction } from '../../../src/contract/team-rules';
import type { AuditEventsTable, Database } from './schema';

/** Who did something: a member (as they were named then), or null for a team API client. */
export interface Actor {
  id: string;
  name: string;
  email: string;
}

export interface AuditEntry {
  teamId: string;
  actor: Actor | null;
  action: AuditAction;
  target: string;
  detail?: Record<string, unknown>;
  now: number;
  /** Where the request came from, when the team keeps addresses. */
  address?: string | null;
  /** The server's id of the request that caused the event. */
  requestId?: string | null;
}

let sequence = 0;

/**
 * An id that sorts by time, then by the order events were recorded in this process: the latest events
 * are the first in (created_at, id) descending, even when two fall in the same millisecond.
 */
function eventId(now: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${String(now).padStart(15, '0')}-${String(sequence).padStart(6, '0')}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Record an admin action. Takes the transaction of the action itself, so an action and its record stand
 * or fall together — and so does its delivery to each of the team's active streaming endpoints: each
 * endpoint's counter is raised here, and the row stays locked until the action commits, so an
 * endpoint's deliveries are numbered in the order their events commit, on every node
 * (docs/decisions/event-streaming.md). A team without endpoints pays one update that finds no row.
 */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  const id = eventId(entry.now);
  const streams = await db
    .updateTable('event_streams')
    .set((eb) => ({ next_seq: eb('next_seq', '+', 1) }))
    .where('team_id', '=', entry.teamId)
    .where('state', '=', 'active')
    .returning(['id', 'next_seq'])
    .execute();
  if (streams.length > 0)
    await db
      .insertInto('stream_deliveries')
      .values(streams.map((stream) => ({ stream_id: stream.id, seq: stream.next_seq, event_id: id })))
      .execute();
  await db
    .insertInto('audit_events')
    .values({
      id,
      team_id: entry.teamId,
      actor_id: entry.actor?.id ?? null,
      actor_name: entry.actor?.name ?? null,
      actor_email: entry.actor?.email ?? null,
      action: entry.action,
      target: entry.target,
      detail: JSON.stringify(entry.detail ?? {}),
      created_at: entry.now,
      address: entry.address ?? null,
      request_id: entry.requestId ?? null,
    })
    .execute();
}

/** The trail of admin actions of each team. */
export function auditRepository(db: Kysely<Database>) {
  return {
    /**
     * The team's events, newest first, a page at a time: those older than `before` (an event's id, which
     * sorts by time), of one kind of action (`kind.…`), by one actor, or in [from, to) (milliseconds) when
     * asked. One more than `limit` is read to know whether a next page exists.
     */
    async page(
      teamId: string,
      limit: number,
      filter: { before?: string; kind?: string; actor?: string; from?: number; to?: number } = {},
    ): Promise<{ events: AuditEventsTable[]; next: string | null }> {
      let query = db.selectFrom('audit_events').selectAll().where('team_id', '=', teamId);
      // An id begins with its event's time (eventId): the page goes on below (created_at, id).
      if (filter.before !== undefined) {
        const at = Number(filter.before.slice(0, 15));
        const before = filter.before;
        query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(at, before)));
      }
      if (filter.kind !== undefined) query = query.where('action', 'like', `${filter.kind}.%`);
      if (filter.actor !== undefined) query = query.where('actor_id', '=', filter.actor);
      if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      const events = rows.slice(0, limit);
      return { events, next: rows.length > limit ? events[events.length - 1]!.id : null };
    },
  };
}

export type AuditRepository = ReturnType<typeof auditRepository>;
