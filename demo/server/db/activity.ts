import type { Kysely } from 'kysely';
import type { ActivityEventsTable, Database, Session } from './schema';
import type { AuditAction } from '../../../src/contract/team-rules';
import { recordAudit } from './audit';
import type { Dialect } from './connect';
import { writeTerms } from './members';
import { lockTeam } from './teams';
import { revokeUserSessions } from './sessions';

let sequence = 0;

/**
 * An id that sorts by time, then by the order events were recorded in this process: a user's log is one
 * range of the (user_id, id) index, newest first, and the last id of a page is the next page's cursor.
 */
function eventId(now: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${String(now).padStart(15, '0')}-${String(sequence).padStart(6, '0')}-${Math.random().toString(36).slice(2, 10)}`;
}

export interface NewActivity {
  userId: string;
  kind: string;
  detail: Record<string, unknown>;
  now: number;
}

/** What the team's event log records of a member's security event (lib/activity.ts `teamEventOf`). */
export interface MemberEvent {
  type: AuditAction;
  detail: Record<string, unknown>;
  address: string | null;
  requestId: string | null;
}

/**
 * Write a member's security event into the event log of their team, in the caller's transaction: the
 * member acts and is the target. A user belongs to one team (users.team_id), so this is one row; gone
 * users (deleted meanwhile) leave none.
 */
async function recordMemberEvent(
  trx: Kysely<Database>,
  userId: string,
  event: MemberEvent,
  now: number,
): Promise<void> {
  const user = await trx
    .selectFrom('users')
    .select(['id', 'name', 'email', 'team_id'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return;
  await recordAudit(trx, {
    teamId: user.team_id,
    actor: { id: user.id, name: user.name, email: user.email },
    action: event.type,
    target: user.email,
    detail: event.detail,
    now,
    address: event.address,
    requestId: event.requestId,
  });
}

/** A user's sessions as the sessions screen lists them, their security log and their known browsers. */
export function activityRepository(db: Kysely<Database>) {
  return {
    noticeAccount: (userId: string) => noticeAccountOf(db, userId),

    /** When the user's live session with this public handle began (its sign-in), if there is one. */
    async sessionStart(publicId: string, userId: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('sessions')
        .select('created_at')
        .where('public_id', '=', publicId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row?.created_at;
    },

    /** What the sessions screen shows of a new session: its browser and (if kept) its address. */
    async describeSession(idHash: string, userAgent: string | null, address: string | null): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ user_agent: userAgent, address })
        .where('id_hash', '=', idHash)
        .execute();
    },

    /** The user's live sessions (not revoked, not past their end, not idle too long), newest first. */
    liveSessions(userId: string, now: number, seenAfter: number): Promise<Session[]> {
      return db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .where('last_seen_at', '>', seenAfter)
        .orderBy('created_at', 'desc')
        .execute();
    },

    /** End one session of this user; false when it is not theirs or already ended. */
    async endSession(userId: string, idHash: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('id_hash', '=', idHash)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** End every session of the user but `keep` (an id hash); the number ended. */
    endOtherSessions: (userId: string, now: number, keep?: string) =>
      revokeUserSessions(db, userId, now, keep),

    /**
     * Add an entry to the user's security log and, when given, the event their team's log records of it:
     * both in one transaction, so the team never hears of what the user's log lost, nor the reverse.
     */
    async record(event: NewActivity, member?: MemberEvent): Promise<void> {
      const write = async (trx: Kysely<Database>) => {
        await trx
          .insertInto('activity_events')
          .values({
            id: eventId(event.now),
            user_id: event.userId,
            kind: event.kind,
            detail: JSON.stringify(event.detail),
            created_at: event.now,
          })
          .execute();
        if (member) await recordMemberEvent(trx, event.userId, member, event.now);
      };
      if (member) await db.transaction().execute(write);
      else await write(db);
    },

    /** A security event only the team's log records (a wrong second-step code, a sign-out). */
    memberEvent: (userId: string, member: MemberEvent, now: number) =>
      recordMemberEvent(db, userId, member, now),

    /** A page of the user's events since `since`, newest first, after the cursor (an event id) if any. */
    page(userId: string, since: number, limit: number, cursor?: string): Promise<ActivityEventsTable[]> {
      let query = db
        .selectFrom('activity_events')
        .selectAll()
        .where('user_id', '=', userId)
        .where('created_at', '>', since);
      if (cursor) query = query.where('id', '<', cursor);
      return query.orderBy('id', 'desc').limit(limit).execute();
    },

    /** Delete every event recorded at or before `before`; the number deleted. */
    async purge(before: number): Promise<number> {
      const result = await db
        .deleteFrom('activity_events')
        .where('created_at', '<=', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * Remember that the user signed in with this browser. `fresh`: the first time for this browser;
     * `known`: how many other browsers the user had signed in with before.
     */
    async rememberDevice(
      userId: string,
      key: string,
      now: number,
    ): Promise<{ fresh: boolean; known: number }> {
      const inserted = await db
        .insertInto('known_devices')
        .values({ user_id: userId, device_key: key, first_seen_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'device_key']).doNothing())
        .executeTakeFirst();
      const fresh = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
      const row = await db
        .selectFrom('known_devices')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return { fresh, known: Number(row.count) - (fresh ? 1 : 0) };
    },
  };
}

export type ActivityRepository = ReturnType<typeof activityRepository>;

/** Who a security notice goes to: the user with their team's name and brand. */
export interface NoticeAccount {
  id: string;
  name: string;
  email: string;
  language: string | null;
  team_id: string;
  display_name: string;
  brand: string | null;
}

/** The user a notice is for, with their team's name and brand. */
export function noticeAccountOf(db: Kysely<Database>, userId: string): Promise<NoticeAccount | undefined> {
  return db
    .selectFrom('users')
    .innerJoin('teams', 'teams.id', 'users.team_id')
    .select([
      'users.id',
      'users.name',
      'users.email',
      'users.language',
      'users.team_id',
      'teams.display_name',
      'teams.brand',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

/** Why confirming or undoing an e-mail change did nothing. */
export type EmailChangeRefusal = 'gone' | 'taken';

/**
 * Give a user another address inside a transaction, with the member search terms: 'taken' when another
 * member of the team has it, 'gone' when the user is.
 */
async function moveAddress(
  trx: Kysely<Database>,
  userId: string,
  email: string,
): Promise<'moved' | EmailChangeRefusal> {
  const user = await trx
    .selectFrom('users')
    .select(['team_id', 'name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return 'gone';
  const holder = await trx
    .selectFrom('users')
    .select('id')
    .where('team_id', '=', user.team_id)
    .where('email', '=', email)
    .where('id', '!=', userId)
    .executeTakeFirst();
  if (holder) return 'taken';
  await trx.updateTable('users').set({ email }).where('id', '=', userId).execute();
  await writeTerms(trx, user.team_id, userId, user.name, email);
  return 'moved';
}

/**
 * E-mail changes: a pending change per user at most (a newer one supersedes it), confirmed by the link
 * mailed to the new address, undone by the link mailed to the old one.
 */
export function emailChangesRepository(db: Kysely<Database>) {
  return {
    /** A new pending change, superseding the user's earlier pending ones, in one transaction. */
    async request(change: {
      id: string;
      userId: string;
      oldEmail: string;
      newEmail: string;
      tokenHash: string;
      undoHash: string;
      now: number;
      expiresAt: number;
    }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('email_changes')
          .set({ superseded_at: change.now })
          .where('user_id', '=', change.userId)
          .where('confirmed_at', 'is', null)
          .where('superseded_at', 'is', null)
          .where('undone_at', 'is', null)
          .execute();
        await trx
          .insertInto('email_changes')
          .values({
            id: change.id,
            user_id: change.userId,
            old_email: change.oldEmail,
            new_email: change.newEmail,
            token_hash: change.tokenHash,
            undo_hash: change.undoHash,
            created_at: change.now,
            expires_at: change.expiresAt,
            confirmed_at: null,
            superseded_at: null,
            undone_at: null,
          })
          .execute();
      });
    },

    find(id: string) {
      return db.selectFrom('email_changes').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The user's change waiting for its confirmation link, if any (at most one: a new one supersedes). */
    pending(userId: string, now: number) {
      return db
        .selectFrom('email_changes')
        .select(['new_email', 'expires_at'])
        .where('user_id', '=', userId)
        .where('confirmed_at', 'is', null)
        .where('superseded_at', 'is', null)
        .where('undone_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
    },

    /** Cancel the user's pending change, as its undo link would: both its links stop working. */
    async cancel(userId: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('email_changes')
        .set({ undone_at: now })
        .where('user_id', '=', userId)
        .where('confirmed_at', 'is', null)
        .where('superseded_at', 'is', null)
        .where('undone_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Whether a link would still be taken, without using it: the same conditions as `confirm` and `undo`
     * (an undo link stays good after the change is confirmed).
     */
    async usable(
      id: string,
      action: 'confirm' | 'undo',
      hash: string,
      now: number,
      undoAfter: number,
    ): Promise<boolean> {
      let query = db
        .selectFrom('email_changes')
        .select('id')
        .where('id', '=', id)
        .where('superseded_at', 'is', null)
        .where('undone_at', 'is', null);
      query =
        action === 'confirm'
          ? query
              .where('token_hash', '=', hash)
              .where('confirmed_at', 'is', null)
              .where('expires_at', '>', now)
          : query.where('undo_hash', '=', hash).where('created_at', '>', undoAfter);
      return (await query.executeTakeFirst()) !== undefined;
    },

    /**
     * Confirm a change, in one transaction: used by one conditional UPDATE (of parallel uses one wins),
     * then the address changes — refused, with nothing changed, when another member took it meanwhile.
     */
    confirm(
      id: string,
      tokenHash: string,
      now: number,
    ): Promise<{ ok: true; userId: string } | { ok: false; reason: EmailChangeRefusal }> {
      return db.transaction().execute(async (trx) => {
        const change = await trx
          .updateTable('email_changes')
          .set({ confirmed_at: now })
          .where('id', '=', id)
          .where('token_hash', '=', tokenHash)
          .where('confirmed_at', 'is', null)
          .where('superseded_at', 'is', null)
          .where('undone_at', 'is', null)
          .where('expires_at', '>', now)
          .returning(['user_id', 'new_email'])
          .executeTakeFirst();
        if (!change) return { ok: false, reason: 'gone' };
        const moved = await moveAddress(trx, change.user_id, change.new_email);
        if (moved === 'taken')
          await trx.updateTable('email_changes').set({ confirmed_at: null }).where('id', '=', id).execute();
        return moved === 'moved' ? { ok: true, userId: change.user_id } : { ok: false, reason: moved };
      });
    },

    /**
     * Undo a change from the old address's link (until `undoUntil` after it was asked for): a pending one
     * is cancelled; a confirmed one gives the old address back and ends every session of the user (whoever
     * confirmed it may be signed in). Single use.
     */
    undo(
      id: string,
      undoHash: string,
      now: number,
      undoAfter: number,
    ): Promise<{ ok: true; userId: string } | { ok: false; reason: EmailChangeRefusal }> {
      return db.transaction().execute(async (trx) => {
        const change = await trx
          .updateTable('email_changes')
          .set({ undone_at: now })
          .where('id', '=', id)
          .where('undo_hash', '=', undoHash)
          .where('undone_at', 'is', null)
          .where('superseded_at', 'is', null)
          .where('created_at', '>', undoAfter)
          .returning(['user_id', 'old_email', 'confirmed_at'])
          .executeTakeFirst();
        if (!change) return { ok: false, reason: 'gone' };
        if (change.confirmed_at !== null) {
          const moved = await moveAddress(trx, change.user_id, change.old_email);
          if (moved === 'taken')
            await trx.updateTable('email_changes').set({ undone_at: null }).where('id', '=', id).execute();
          if (moved !== 'moved') return { ok: false, reason: moved };
          await revokeUserSessions(trx, change.user_id, now);
        }
        return { ok: true, userId: change.user_id };
      });
    },
  };
}

export type EmailChangesRepository = ReturnType<typeof emailChangesRepository>;

/** Why leaving was refused: the team would have no owner left. */
export type LeaveRefusal = 'lastOwner';

/** The user's own account as a whole: leaving the team (deleting the account). */
export function accountsRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * Delete the user's account, judged and done with the team's row held: refused for the team's last
     * OWNER who is not disabled. Their sessions, identities, tokens' backing, links, group memberships,
     * search terms and log go with the user row (foreign keys); the team's audit trail records it.
     */
    leave(user: { id: string; teamId: string; name: string; email: string }, now: number) {
      return db
        .transaction()
        .execute(async (trx): Promise<{ ok: true } | { ok: false; reason: LeaveRefusal }> => {
          await lockTeam(trx, dialect, user.teamId);
          const owner = await trx
            .selectFrom('user_permissions')
            .select('user_id')
            .where('user_id', '=', user.id)
            .where('permission', '=', 'OWNER')
            .executeTakeFirst();
          if (owner) {
            const others = await trx
              .selectFrom('users')
              .innerJoin('user_permissions', 'user_permissions.user_id', 'users.id')
              .select('users.id')
              .where('users.team_id', '=', user.teamId)
              .where('users.id', '!=', user.id)
              .where('users.disabled_at', 'is', null)
              .where('user_permissions.permission', '=', 'OWNER')
              .executeTakeFirst();
            if (!others) return { ok: false, reason: 'lastOwner' };
          }
          await trx.deleteFrom('users').where('id', '=', user.id).execute();
          await recordAudit(trx, {
            teamId: user.teamId,
            actor: { id: user.id, name: user.name, email: user.email },
            action: 'member.removed',
            target: user.email,
            detail: { self: true, name: user.name },
            now,
          });
          return { ok: true };
        });
    },
  };
}
