import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordAudit, type Actor } from './audit';
import type { Dialect } from './connect';
import { insertPending, standingOf, type InvitationWithInviter, type NewInvitation } from './invitations';
import type { Database, JoinRequestsTable } from './schema';
import { lockTeam } from './teams';
import { isUniqueViolation } from './unique';

/** A new request as the person asked it: the code's keyed hash and when it stops working. */
export interface NewJoinRequest {
  teamId: string;
  email: string;
  name: string;
  language: string;
  codeHash: string;
  codeExpiresAt: number;
  now: number;
}

/** What entering the right code led to; the person is told the same thing in every case. */
export type VerifiedOutcome =
  | { kind: 'pending'; request: JoinRequestsTable }
  | { kind: 'invited'; request: JoinRequestsTable; invitation: InvitationWithInviter }
  /** A member already, asked before, invited already, or the account is disabled: nothing recorded. */
  | { kind: 'dropped' };

export type DecideOutcome =
  | { ok: true; request: JoinRequestsTable; invitation?: InvitationWithInviter }
  | { ok: false; reason: 'notFound' | 'alreadyMember' | 'alreadyInvited' | 'seatLimit' };

/** The invitation's fields but those that come from the request (no permissions: a member). */
export type InvitationFields = Omit<NewInvitation, 'teamId' | 'email' | 'permissions' | 'language'>;

/**
 * Requests to join a team from an address at one of its verified domains. Approving one (an admin, or
 * the domain's automatic joining) makes an ordinary invitation in the same transaction, under the team's
 * lock and its seat rule (db/invitations.ts `insertPending`), so the person joins through the invitation
 * link as any invitee does. Audited in the transaction of the change.
 */
export function joinRequestsRepository(db: Kysely<Database>, dialect: Dialect) {
  const audit = (
    trx: Kysely<Database>,
    row: JoinRequestsTable,
    action: 'joinRequest.created' | 'joinRequest.approved' | 'joinRequest.declined',
    actor: Actor | null,
    now: number,
    detail?: Record<string, unknown>,
  ) => recordAudit(trx, { teamId: row.team_id, actor, action, target: row.email, detail, now });

  /** Approve a pending request in `trx`: an invitation with no permissions, or why not. */
  async function approveIn(
    trx: Kysely<Database>,
    row: JoinRequestsTable,
    fields: InvitationFields,
    automatic: boolean,
  ): Promise<DecideOutcome> {
    const outcome = await insertPending(trx, {
      ...fields,
      teamId: row.team_id,
      email: row.email,
      permissions: [],
      language: row.language,
    });
    if (!outcome.ok) return outcome;
    const decided = {
      state: 'approved' as const,
      decided_by: fields.inviter?.id ?? null,
      decided_at: fields.now,
    };
    await trx.updateTable('join_requests').set(decided).where('id', '=', row.id).execute();
    await audit(trx, row, 'joinRequest.approved', fields.inviter, fields.now, { automatic });
    await recordAudit(trx, {
      teamId: row.team_id,
      actor: fields.inviter,
      action: 'member.invited',
      target: row.email,
      detail: { permissions: [] },
      now: fields.now,
    });
    return { ok: true, request: { ...row, ...decided }, invitation: outcome.invitation };
  }

  /** `verified` in one transaction. */
  function verifiedIn(id: string, autoJoin: boolean, fields: InvitationFields): Promise<VerifiedOutcome> {
    return db.transaction().execute(async (trx): Promise<VerifiedOutcome> => {
      const row = await trx
        .selectFrom('join_requests')
        .selectAll()
        .where('id', '=', id)
        .where('state', '=', 'unverified')
        .executeTakeFirst();
      if (!row) return { kind: 'dropped' };
      await lockTeam(trx, dialect, row.team_id);
      const drop = async (): Promise<VerifiedOutcome> => {
        await trx.deleteFrom('join_requests').where('id', '=', id).execute();
        return { kind: 'dropped' };
      };
      if (await standingOf(trx, row.team_id, row.email, fields.now)) return drop();
      const asked = await trx
        .selectFrom('join_requests')
        .select('id')
        .where('team_id', '=', row.team_id)
        .where('email', '=', row.email)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (asked) return drop();
      const pending = { ...row, state: 'pending' as const, code_hash: null, code_expires_at: null };
      const taken = await trx
        .updateTable('join_requests')
        .set({ state: 'pending', code_hash: null, code_expires_at: null })
        .where('id', '=', id)
        .where('state', '=', 'unverified')
        .executeTakeFirst();
      // Entered twice at once: the other entry has it.
      if (!taken.numUpdatedRows) return { kind: 'dropped' };
      await audit(trx, pending, 'joinRequest.created', null, fields.now, { name: row.name });
      if (!autoJoin) return { kind: 'pending', request: pending };
      const outcome = await approveIn(trx, pending, fields, true);
      if (outcome.ok && outcome.invitation)
        return { kind: 'invited', request: outcome.request, invitation: outcome.invitation };
      // No seat free: the request waits for an admin, who sees the seat limit when approving.
      return { kind: 'pending', request: pending };
    });
  }

  return {
    /**
     * Record an unverified request (the code is in the mail). Unverified requests past their time are
     * swept out here, as they are never shown.
     */
    async begin(request: NewJoinRequest): Promise<string> {
      const id = randomUUID();
      await db
        .deleteFrom('join_requests')
        .where('state', '=', 'unverified')
        .where('code_expires_at', '<', request.now)
        .execute();
      await db
        .insertInto('join_requests')
        .values({
          id,
          team_id: request.teamId,
          email: request.email,
          name: request.name,
          language: request.language,
          state: 'unverified',
          code_hash: request.codeHash,
          code_expires_at: request.codeExpiresAt,
          attempts: 0,
          created_at: request.now,
          decided_by: null,
          decided_at: null,
        })
        .execute();
      return id;
    },

    /** An unverified request by id, with its team's name (for the lockout), if any. */
    unverified(id: string) {
      return db
        .selectFrom('join_requests')
        .innerJoin('teams', 'teams.id', 'join_requests.team_id')
        .selectAll('join_requests')
        .select('teams.name as team_name')
        .where('join_requests.id', '=', id)
        .where('join_requests.state', '=', 'unverified')
        .executeTakeFirst();
    },

    /** Count a wrong code; past `max` the code stops working (the row goes). The count now. */
    async wrongCode(id: string, max: number): Promise<number> {
      const row = await db
        .updateTable('join_requests')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where('state', '=', 'unverified')
        .returning('attempts')
        .executeTakeFirst();
      const attempts = row?.attempts ?? max;
      if (attempts >= max) await db.deleteFrom('join_requests').where('id', '=', id).execute();
      return attempts;
    },

    /**
     * The right code was entered: single use (the unverified row is taken in the transaction). A member
     * of the team (enabled or not), an address with a pending request or an open invitation is dropped;
     * otherwise the request waits for an admin — or, when its domain lets people join without approval
     * and a seat is free, becomes an invitation at once.
     */
    async verified(id: string, autoJoin: boolean, fields: InvitationFields): Promise<VerifiedOutcome> {
      try {
        return await verifiedIn(id, autoJoin, fields);
      } catch (error) {
        // The same address's other request became pending in the same moment, on another node.
        if (isUniqueViolation(error)) return { kind: 'dropped' };
        throw error;
      }
    },

    /** The team's requests waiting for an admin, oldest first. */
    listPending(teamId: string): Promise<JoinRequestsTable[]> {
      return db
        .selectFrom('join_requests')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('state', '=', 'pending')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /** Approve the team's pending request: an invitation, seat allowing (the team's row held). */
    approve(teamId: string, id: string, fields: InvitationFields): Promise<DecideOutcome> {
      return db.transaction().execute(async (trx): Promise<DecideOutcome> => {
        await lockTeam(trx, dialect, teamId);
        const row = await trx
          .selectFrom('join_requests')
          .selectAll()
          .where('id', '=', id)
          .where('team_id', '=', teamId)
          .where('state', '=', 'pending')
          .executeTakeFirst();
        if (!row) return { ok: false, reason: 'notFound' };
        return approveIn(trx, row, fields, false);
      });
    },

    /** Decline the team's pending request (audited); undefined when there is none. */
    decline(teamId: string, id: string, actor: Actor, now: number) {
      return db.transaction().execute(async (trx): Promise<JoinRequestsTable | undefined> => {
        const decided = { state: 'declined' as const, decided_by: actor.id, decided_at: now };
        const row = await trx
          .updateTable('join_requests')
          .set(decided)
          .where('id', '=', id)
          .where('team_id', '=', teamId)
          .where('state', '=', 'pending')
          .returningAll()
          .executeTakeFirst();
        if (!row) return undefined;
        await audit(trx, row, 'joinRequest.declined', actor, now);
        return row;
      });
    },
  };
}

export type JoinRequestsRepository = ReturnType<typeof joinRequestsRepository>;
