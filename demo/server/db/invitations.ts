import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { invitationState, type InvitationGone } from '../../../src/contract/team-rules';
import type { Permission } from '../../../src/contract/permissions';
import { recordAudit, type Actor } from './audit';
import type { Dialect } from './connect';
import { insertMember, type NewMember } from './members';
import type { Database, Invitation } from './schema';
import { lockTeam, seatsOf } from './teams';

/** An invitation with the member who sent it (null once they are gone). */
export type InvitationWithInviter = Invitation & {
  inviter_name: string | null;
  inviter_email: string | null;
};

export interface NewInvitation {
  teamId: string;
  email: string;
  permissions: Permission[];
  tokenHash: string;
  /** Null when nobody sent it: a join request its domain lets through without an admin. */
  inviter: Actor | null;
  language: string;
  now: number;
  expiresAt: number;
}

export type InviteOutcome =
  | { ok: true; invitation: InvitationWithInviter }
  | { ok: false; reason: 'alreadyMember' | 'alreadyInvited' | 'seatLimit' };

export type ResendOutcome = InviteOutcome | { ok: false; reason: 'notFound' };

export type AcceptOutcome =
  | { ok: true; userId: string }
  | { ok: false; reason: 'gone'; gone: InvitationGone }
  | { ok: false; reason: 'alreadyMember' | 'seatLimit' };

/** An invitation link's invitation, with what the invitation screen shows of its team. */
export interface InvitationForLink {
  invitation: Invitation;
  team: {
    id: string;
    name: string;
    display_name: string;
    disabled: number;
    brand: string | null;
    local_enabled: number;
    google_enabled: number;
    azure_enabled: number;
    auth0_enabled: number;
    apple_enabled: number;
    auth0_display_name: string | null;
  };
}

const withInviter = (executor: Kysely<Database>) =>
  executor
    .selectFrom('invitations')
    .leftJoin('users', 'users.id', 'invitations.invited_by')
    .selectAll('invitations')
    .select(['users.name as inviter_name', 'users.email as inviter_email']);

/**
 * What already stands between the address and a new invitation to the team: it is a member (enabled
 * or not), or has an open invitation (other than `except`).
 */
export async function standingOf(
  trx: Kysely<Database>,
  teamId: string,
  email: string,
  now: number,
  except?: string,
): Promise<'alreadyMember' | 'alreadyInvited' | null> {
  const member = await trx
    .selectFrom('users')
    .select('id')
    .where('team_id', '=', teamId)
    .where('email', '=', email)
    .executeTakeFirst();
  if (member) return 'alreadyMember';
  let pending = trx
    .selectFrom('invitations')
    .select('id')
    .where('team_id', '=', teamId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('superseded_at', 'is', null)
    .where('expires_at', '>', now);
  if (except) pending = pending.where('id', '!=', except);
  return (await pending.executeTakeFirst()) ? 'alreadyInvited' : null;
}

/**
 * Insert a pending invitation, refused when the address is a member or invited, or no seat is free.
 * Run in a transaction that holds the team's row (`lockTeam`): the invitations' and the join requests'.
 */
export async function insertPending(
  trx: Kysely<Database>,
  invitation: NewInvitation,
  except?: string,
): Promise<InviteOutcome> {
  const standing = await standingOf(trx, invitation.teamId, invitation.email, invitation.now, except);
  if (standing) return { ok: false, reason: standing };
  const seats = await seatsOf(trx, invitation.teamId, invitation.now, except);
  if (seats.used + 1 > seats.limit) return { ok: false, reason: 'seatLimit' };
  const id = randomUUID();
  await trx
    .insertInto('invitations')
    .values({
      id,
      team_id: invitation.teamId,
      email: invitation.email,
      permissions: JSON.stringify(invitation.permissions),
      token_hash: invitation.tokenHash,
      invited_by: invitation.inviter?.id ?? null,
      language: invitation.language,
      created_at: invitation.now,
      sent_at: invitation.now,
      expires_at: invitation.expiresAt,
      accepted_at: null,
      revoked_at: null,
      superseded_at: null,
    })
    .execute();
  const row = await withInviter(trx).where('invitations.id', '=', id).executeTakeFirstOrThrow();
  return { ok: true, invitation: row };
}

/** Invitations to join a team, stored by the SHA-256 of their token (the token travels only by mail). */
export function invitationsRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * The team's open invitations — not accepted, revoked or resent — newest first. Expired ones are
     * listed too (their admins may resend or revoke them), though they hold no seat.
     */
    listOpen(teamId: string): Promise<InvitationWithInviter[]> {
      return withInviter(db)
        .where('invitations.team_id', '=', teamId)
        .where('invitations.accepted_at', 'is', null)
        .where('invitations.revoked_at', 'is', null)
        .where('invitations.superseded_at', 'is', null)
        .orderBy('invitations.sent_at', 'desc')
        .orderBy('invitations.id')
        .execute();
    },

    /**
     * Invite an address, decided with the team's row held (design §7: two parallel invitations for the
     * last seat → one wins): not a member, not invited already, and a seat free.
     */
    invite(invitation: NewInvitation): Promise<InviteOutcome> {
      return db.transaction().execute(async (trx) => {
        await lockTeam(trx, dialect, invitation.teamId);
        const outcome = await insertPending(trx, invitation);
        if (outcome.ok) {
          await recordAudit(trx, {
            teamId: invitation.teamId,
            actor: invitation.inviter,
            action: 'member.invited',
            target: invitation.email,
            detail: { permissions: invitation.permissions },
            now: invitation.now,
          });
        }
        return outcome;
      });
    },

    /**
     * Send an open invitation again: it is superseded (its link stops working) by a new one — a new id,
     * token and seven days — from the admin who resends it. An expired one takes a seat again, so the
     * seat rule applies as to a new invitation.
     */
    resend(id: string, invitation: Omit<NewInvitation, 'email' | 'permissions'>): Promise<ResendOutcome> {
      return db.transaction().execute(async (trx) => {
        await lockTeam(trx, dialect, invitation.teamId);
        const old = await trx
          .selectFrom('invitations')
          .selectAll()
          .where('id', '=', id)
          .where('team_id', '=', invitation.teamId)
          .where('accepted_at', 'is', null)
          .where('revoked_at', 'is', null)
          .where('superseded_at', 'is', null)
          .executeTakeFirst();
        if (!old) return { ok: false, reason: 'notFound' };
        const outcome = await insertPending(
          trx,
          { ...invitation, email: old.email, permissions: JSON.parse(old.permissions) as Permission[] },
          old.id,
        );
        if (!outcome.ok) return outcome;
        await trx
          .updateTable('invitations')
          .set({ superseded_at: invitation.now })
          .where('id', '=', old.id)
          .execute();
        await recordAudit(trx, {
          teamId: invitation.teamId,
          actor: invitation.inviter,
          action: 'invitation.resent',
          target: old.email,
          now: invitation.now,
        });
        return outcome;
      });
    },

    /** Revoke an open invitation of the team; whether there was one. */
    revoke(teamId: string, id: string, actor: Actor, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('invitations')
          .set({ revoked_at: now })
          .where('id', '=', id)
          .where('team_id', '=', teamId)
          .where('accepted_at', 'is', null)
          .where('revoked_at', 'is', null)
          .where('superseded_at', 'is', null)
          .returning('email')
          .executeTakeFirst();
        if (!row) return false;
        await recordAudit(trx, { teamId, actor, action: 'invitation.revoked', target: row.email, now });
        return true;
      });
    },

    /** The invitation a link names, in the team it names. */
    async findForLink(teamName: string, id: string): Promise<InvitationForLink | undefined> {
      const row = await db
        .selectFrom('invitations')
        .innerJoin('teams', 'teams.id', 'invitations.team_id')
        .selectAll('invitations')
        .select([
          'teams.name as team_name',
          'teams.display_name',
          'teams.disabled',
          'teams.brand',
          'teams.local_enabled',
          'teams.google_enabled',
          'teams.azure_enabled',
          'teams.auth0_enabled',
          'teams.apple_enabled',
          'teams.auth0_display_name',
        ])
        .where('invitations.id', '=', id)
        .where('teams.name', '=', teamName)
        .executeTakeFirst();
      if (!row) return undefined;
      const { team_name, display_name, disabled, brand, auth0_display_name, ...rest } = row;
      const { local_enabled, google_enabled, azure_enabled, auth0_enabled, apple_enabled, ...invitation } =
        rest;
      return {
        invitation,
        team: {
          id: invitation.team_id,
          name: team_name,
          display_name,
          disabled,
          brand,
          local_enabled,
          google_enabled,
          azure_enabled,
          auth0_enabled,
          apple_enabled,
          auth0_display_name,
        },
      };
    },

    /** The invited address of an invitation, whatever its state. */
    async emailOf(id: string): Promise<string | undefined> {
      const row = await db.selectFrom('invitations').select('email').where('id', '=', id).executeTakeFirst();
      return row?.email;
    },

    /**
     * Accept an invitation: the new member joins, in one transaction with the team's row held. The
     * invitation is consumed by one conditional UPDATE (of parallel accepts exactly one wins); refused
     * when the address joined meanwhile or — should the limit have been lowered — no seat is free.
     */
    accept(
      invitationId: string,
      member: Omit<NewMember, 'email' | 'teamId' | 'permissions'>,
    ): Promise<AcceptOutcome> {
      return db
        .transaction()
        .execute(async (trx): Promise<AcceptOutcome> => {
          const invitation = await trx
            .selectFrom('invitations')
            .selectAll()
            .where('id', '=', invitationId)
            .executeTakeFirst();
          if (!invitation) return { ok: false, reason: 'gone', gone: 'invalid' };
          await lockTeam(trx, dialect, invitation.team_id);
          const now = member.now;
          const consumed = await trx
            .updateTable('invitations')
            .set({ accepted_at: now })
            .where('id', '=', invitationId)
            .where('accepted_at', 'is', null)
            .where('revoked_at', 'is', null)
            .where('superseded_at', 'is', null)
            .where('expires_at', '>', now)
            .executeTakeFirst();
          if (Number(consumed.numUpdatedRows) !== 1) {
            const state = invitationState(
              await trx
                .selectFrom('invitations')
                .selectAll()
                .where('id', '=', invitationId)
                .executeTakeFirstOrThrow(),
              now,
            );
            return { ok: false, reason: 'gone', gone: state === 'pending' ? 'invalid' : state };
          }
          const existing = await trx
            .selectFrom('users')
            .select('id')
            .where('team_id', '=', invitation.team_id)
            .where('email', '=', invitation.email)
            .executeTakeFirst();
          if (existing) throw new Refused('alreadyMember');
          // This invitation's seat is now the member's: count the others.
          const seats = await seatsOf(trx, invitation.team_id, now, invitation.id);
          if (seats.used + 1 > seats.limit) throw new Refused('seatLimit');
          const userId = await insertMember(trx, {
            ...member,
            teamId: invitation.team_id,
            email: invitation.email,
            permissions: JSON.parse(invitation.permissions) as Permission[],
          });
          await recordAudit(trx, {
            teamId: invitation.team_id,
            actor: { id: userId, name: member.name, email: invitation.email },
            action: 'invitation.accepted',
            target: invitation.email,
            now,
          });
          return { ok: true, userId };
        })
        .catch((error: unknown) => {
          // A refusal after the invitation was consumed: the transaction rolled back, the link still works.
          if (error instanceof Refused) return { ok: false, reason: error.reason };
          throw error;
        });
    },
  };
}

/** Thrown inside a transaction to roll it back with an answer. */
class Refused extends Error {
  constructor(readonly reason: 'alreadyMember' | 'seatLimit') {
    super(reason);
  }
}

export type InvitationsRepository = ReturnType<typeof invitationsRepository>;
