import { sql, type Kysely } from 'kysely';
import type { AuditAction } from '../../../src/contract/team-rules';
import type { StreamProblem } from '../../../src/contract/event-streams';
import { recordAudit, type Actor } from './audit';
import type { Dialect } from './connect';
import type { AuditEventsTable, Database, EventStreamsTable } from './schema';

/** Thrown to undo a disabling whose claim was lost. */
const LOST = Symbol('claim lost');

/** An endpoint as its admins see it: the row and how many events wait for it. */
export type StreamRow = EventStreamsTable & { pending: number };

/** A delivery as the worker sends it: its number and the event. */
export type PendingDelivery = { seq: number; event: AuditEventsTable };

/** How one round of deliveries to an endpoint ended. */
export type DeliveryOutcome =
  | { delivered: number; lastSeq: number | null; failure: null }
  | {
      delivered: number;
      lastSeq: number | null;
      failure: { problem: StreamProblem; status: number | null; nextAttemptAt: number; disable: boolean };
    };

/** Where an endpoint stands in the audit trail: its host, never the whole address (it may hold a key). */
const targetOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 100);
  }
};

/**
 * A team's streaming endpoints and the events each still has to take (docs/decisions/event-streaming.md).
 * The admins' changes are recorded in the audit trail, each in its own transaction, the record first: it
 * raises the counters of the team's active endpoints (db/audit.ts), so every transaction here takes the
 * endpoint rows in the same order and two admins acting at once cannot deadlock.
 */
export function eventStreamsRepository(db: Kysely<Database>, dialect: Dialect) {
  const audit = (
    trx: Kysely<Database>,
    stream: Pick<EventStreamsTable, 'id' | 'team_id' | 'url'>,
    action: AuditAction,
    actor: Actor | null,
    now: number,
  ) =>
    recordAudit(trx, {
      teamId: stream.team_id,
      actor,
      action,
      target: targetOf(stream.url),
      detail: { streamId: stream.id },
      now,
    });

  const withPending = (row: EventStreamsTable, pending: number | string | null | undefined): StreamRow => ({
    ...row,
    pending: Number(pending ?? 0),
  });

  /** Changes the team's endpoint, recorded first; undefined when the team has none of that id. */
  const change = (
    teamId: string,
    id: string,
    action: AuditAction,
    actor: Actor,
    now: number,
    values: (row: EventStreamsTable) => Partial<EventStreamsTable> | null,
  ): Promise<StreamRow | undefined> =>
    db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('event_streams')
        .selectAll()
        .where('id', '=', id)
        .where('team_id', '=', teamId)
        .executeTakeFirst();
      if (!before) return undefined;
      await audit(trx, before, action, actor, now);
      const set = values(before);
      const row = set
        ? await trx
            .updateTable('event_streams')
            .set(set)
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirst()
        : before;
      if (!row) return undefined;
      const counted = await trx
        .selectFrom('stream_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('stream_id', '=', id)
        .executeTakeFirst();
      return withPending(row, counted?.n);
    });

  return {
    /** A team's endpoints, oldest first, with how many events wait for each. */
    async list(teamId: string): Promise<StreamRow[]> {
      const rows = await db
        .selectFrom('event_streams')
        .selectAll()
        .select((eb) =>
          eb
            .selectFrom('stream_deliveries')
            .select((inner) => inner.fn.countAll<number>().as('n'))
            .whereRef('stream_deliveries.stream_id', '=', 'event_streams.id')
            .as('pending'),
        )
        .where('team_id', '=', teamId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(({ pending, ...row }) => withPending(row, pending));
    },

    async get(teamId: string, id: string): Promise<EventStreamsTable | undefined> {
      return db
        .selectFrom('event_streams')
        .selectAll()
        .where('id', '=', id)
        .where('team_id', '=', teamId)
        .executeTakeFirst();
    },

    /** A new endpoint, active; null when the team has `max` already. */
    async create(
      teamId: string,
      stream: { id: string; url: string; secret: string },
      max: number,
      actor: Actor,
      now: number,
    ): Promise<StreamRow | null> {
      return db.transaction().execute(async (trx) => {
        const counted = await trx
          .selectFrom('event_streams')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('team_id', '=', teamId)
          .executeTakeFirst();
        if (Number(counted?.n ?? 0) >= max) return null;
        const row: EventStreamsTable = {
          id: stream.id,
          team_id: teamId,
          url: stream.url,
          secret: stream.secret,
          previous_secret: null,
          state: 'active',
          next_seq: 0,
          created_at: now,
          rotated_at: null,
          last_delivery_at: null,
          failing_since: null,
          failures: 0,
          last_problem: null,
          last_status: null,
          next_attempt_at: now,
          disabled_at: null,
          lease_holder: null,
          lease_until: null,
        };
        // Recorded before the row exists: the endpoint's stream begins after the event that made it.
        await audit(trx, row, 'stream.added', actor, now);
        await trx.insertInto('event_streams').values(row).execute();
        return withPending(row, 0);
      });
    },

    /** A new secret (sealed): the present one becomes the previous, which still signs for a while. */
    rotate(
      teamId: string,
      id: string,
      secret: string,
      sealPrevious: (row: EventStreamsTable) => string,
      actor: Actor,
      now: number,
    ) {
      return change(teamId, id, 'stream.secretRotated', actor, now, (row) => ({
        secret,
        previous_secret: sealPrevious(row),
        rotated_at: now,
      }));
    },

    /** Paused: no events are queued for it until it is resumed. */
    pause(teamId: string, id: string, actor: Actor, now: number) {
      return change(teamId, id, 'stream.paused', actor, now, (row) =>
        row.state === 'paused' ? null : { state: 'paused', lease_holder: null, lease_until: null },
      );
    },

    /** Active again, a disabled one too: its failures forgotten, what waited for it sent first. */
    resume(teamId: string, id: string, actor: Actor, now: number) {
      return change(teamId, id, 'stream.resumed', actor, now, (row) =>
        row.state === 'active'
          ? null
          : {
              state: 'active',
              failures: 0,
              failing_since: null,
              disabled_at: null,
              next_attempt_at: now,
            },
      );
    },

    /** The admin sent a test event; the row as it is. */
    tested(teamId: string, id: string, actor: Actor, now: number) {
      return change(teamId, id, 'stream.tested', actor, now, () => null);
    },

    /** Removes the team's endpoint and what waited for it; false when it has none of that id. */
    async remove(teamId: string, id: string, actor: Actor, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('event_streams')
          .selectAll()
          .where('id', '=', id)
          .where('team_id', '=', teamId)
          .executeTakeFirst();
        if (!row) return false;
        await audit(trx, row, 'stream.removed', actor, now);
        await trx.deleteFrom('stream_deliveries').where('stream_id', '=', id).execute();
        await trx.deleteFrom('event_streams').where('id', '=', id).execute();
        return true;
      });
    },

    /**
     * Claims up to `limit` active endpoints due now with events waiting and no live claim: each is
     * leased to `holder` until `leaseUntil`. On PostgreSQL the rows are locked `FOR UPDATE SKIP LOCKED`,
     * so nodes claiming at once take different endpoints, and one an event is being written for (its row
     * locked by recordAudit) is left to the next round; SQLite has one node and one writer at a time.
     */
    async claim(
      holder: string,
      now: number,
      leaseUntil: number,
      limit: number,
    ): Promise<EventStreamsTable[]> {
      return db.transaction().execute(async (trx) => {
        let query = trx
          .selectFrom('event_streams')
          .select('id')
          .where('state', '=', 'active')
          .where('next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('stream_deliveries')
                .select(sql.lit(1).as('one'))
                .whereRef('stream_deliveries.stream_id', '=', 'event_streams.id'),
            ),
          )
          .orderBy('next_attempt_at')
          .limit(limit);
        if (dialect === 'postgres') query = query.forUpdate().skipLocked();
        const ids = (await query.execute()).map((row) => row.id);
        if (ids.length === 0) return [];
        return trx
          .updateTable('event_streams')
          .set({ lease_holder: holder, lease_until: leaseUntil })
          .where('id', 'in', ids)
          .returningAll()
          .execute();
      });
    },

    /** The endpoint's next events to send, in order. */
    async pending(streamId: string, limit: number): Promise<PendingDelivery[]> {
      const rows = await db
        .selectFrom('stream_deliveries')
        .innerJoin('audit_events', 'audit_events.id', 'stream_deliveries.event_id')
        .selectAll('audit_events')
        .select('stream_deliveries.seq')
        .where('stream_deliveries.stream_id', '=', streamId)
        .orderBy('stream_deliveries.seq')
        .limit(limit)
        .execute();
      return rows.map(({ seq, ...event }) => ({ seq, event }));
    },

    /**
     * What a round achieved: the deliveries up to `lastSeq` are done (deleted), the status written, the
     * claim given up. A failure that has lasted its day disables the endpoint, recorded as the server's
     * act; true then, so the owners are told (once: only the holder of the claim disables it).
     */
    async finish(
      stream: EventStreamsTable,
      holder: string,
      outcome: DeliveryOutcome,
      now: number,
    ): Promise<boolean> {
      const { failure } = outcome;
      const disable = failure?.disable === true;
      try {
        return await db.transaction().execute(async (trx) => {
          if (outcome.lastSeq !== null)
            await trx
              .deleteFrom('stream_deliveries')
              .where('stream_id', '=', stream.id)
              .where('seq', '<=', outcome.lastSeq)
              .execute();
          // Recorded first, as every change here (see above); undone below when the claim was lost.
          if (disable) await audit(trx, stream, 'stream.disabled', null, now);
          const updated = await trx
            .updateTable('event_streams')
            .set({
              lease_holder: null,
              lease_until: null,
              ...(outcome.delivered > 0 ? { last_delivery_at: now } : {}),
              ...(failure === null
                ? {
                    failures: 0,
                    failing_since: null,
                    last_problem: null,
                    last_status: null,
                    next_attempt_at: now,
                  }
                : {
                    failures: stream.failures + 1,
                    failing_since: stream.failing_since ?? now,
                    last_problem: failure.problem,
                    last_status: failure.status,
                    next_attempt_at: failure.nextAttemptAt,
                    ...(disable ? { state: 'disabled' as const, disabled_at: now } : {}),
                  }),
            })
            .where('id', '=', stream.id)
            .where('lease_holder', '=', holder)
            .where('state', '=', 'active')
            .executeTakeFirst();
          if (disable && Number(updated.numUpdatedRows) === 0) throw LOST;
          return disable;
        });
      } catch (error) {
        if (error !== LOST) throw error;
        // The claim was lost (or the endpoint paused) meanwhile: keep what was delivered done.
        if (outcome.lastSeq !== null)
          await db
            .deleteFrom('stream_deliveries')
            .where('stream_id', '=', stream.id)
            .where('seq', '<=', outcome.lastSeq)
            .execute();
        return false;
      }
    },
  };
}

export type EventStreamsRepository = ReturnType<typeof eventStreamsRepository>;
