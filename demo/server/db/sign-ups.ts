import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, SignUpsTable } from './schema';
import { recordAudit } from './audit';
import { insertMember } from './members';
import { isUniqueViolation } from './unique';

/** What a new sign-up (or the same address asking again) records: the secrets' hashes only. */
export type NewSignUp = Omit<SignUpsTable, 'id' | 'ticket_hash' | 'verified_at'>;

/** The team and its owner a finished sign-up makes. */
export interface NewTeam {
  ticketHash: string;
  teamName: string;
  address: string;
  passwordHash: string | null;
  /** The brand of the team's mail: the deployment's (null). */
  now: number;
}

export type CompleteOutcome =
  { ok: true; userId: string; teamId: string; email: string } | { ok: false; reason: 'gone' | 'taken' };

/** Thrown inside the transaction to roll back the spent ticket when the address was taken meanwhile. */
class AddressTaken extends Error {}

/**
 * Sign-ups that wait for their address to be verified, then for the team to be made
 * (routes/sign-up.ts). One row per address (a unique index): two requests at once for one address meet
 * in the same row. Every use is one conditional statement, so a code, a link or a ticket works once.
 */
export function signUpsRepository(db: Kysely<Database>) {
  return {
    /**
     * Record the sign-up, or renew the address's unfinished one with the new mail's secrets (the older
     * mail stops working, and a verification made with it too); its id either way. Sign-ups past their
     * day are swept out first: they are never shown.
     */
    async begin(row: NewSignUp): Promise<string> {
      await db.deleteFrom('sign_ups').where('expires_at', '<=', row.created_at).execute();
      const renewed = {
        name: row.name,
        team_name: row.team_name,
        address: row.address,
        language: row.language,
        code_hash: row.code_hash,
        link_hash: row.link_hash,
        code_expires_at: row.code_expires_at,
        ticket_hash: null,
        verified_at: null,
      };
      const saved = await db
        .insertInto('sign_ups')
        .values({ ...row, id: randomUUID(), ticket_hash: null, verified_at: null })
        .onConflict((oc) => oc.column('email').doUpdateSet(renewed))
        .returning('id')
        .executeTakeFirstOrThrow();
      return saved.id;
    },

    /** The sign-up by its id, while it lives. */
    byId(id: string, now: number): Promise<SignUpsTable | undefined> {
      return db
        .selectFrom('sign_ups')
        .selectAll()
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },

    /** The sign-up whose mail's link this is, while the link works. */
    byLink(id: string, linkHash: string, now: number): Promise<SignUpsTable | undefined> {
      return db
        .selectFrom('sign_ups')
        .selectAll()
        .where('id', '=', id)
        .where('link_hash', '=', linkHash)
        .where('code_expires_at', '>', now)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },

    /** The verified sign-up a ticket names, while it lives. */
    byTicket(ticketHash: string, now: number): Promise<SignUpsTable | undefined> {
      return db
        .selectFrom('sign_ups')
        .selectAll()
        .where('ticket_hash', '=', ticketHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },

    /**
     * Spend the mail (its code and its link) for a ticket, by one conditional UPDATE: of the code typed
     * and the link opened at once, one wins. False when the mail was used, replaced or has expired.
     */
    async verify(id: string, codeHash: string, ticketHash: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('sign_ups')
        .set({ code_expires_at: 0, ticket_hash: ticketHash, verified_at: now })
        .where('id', '=', id)
        .where('code_hash', '=', codeHash)
        .where('code_expires_at', '>', now)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The mail stops working (a lock began: it must not outlive it). */
    async endCode(id: string): Promise<void> {
      await db.updateTable('sign_ups').set({ code_expires_at: 0 }).where('id', '=', id).execute();
    },

    /**
     * Make the team and its owner, spending the ticket, in one transaction: a second completion finds
     * no ticket (`gone`); a taken address (another sign-up made that team first: the unique index
     * decides) rolls the whole of it back, ticket included, so the person can pick another.
     */
    async complete(team: NewTeam): Promise<CompleteOutcome> {
      try {
        return await db.transaction().execute(async (trx): Promise<CompleteOutcome> => {
          const row = await trx
            .deleteFrom('sign_ups')
            .where('ticket_hash', '=', team.ticketHash)
            .where('expires_at', '>', team.now)
            .returningAll()
            .executeTakeFirst();
          if (!row) return { ok: false, reason: 'gone' };
          const teamId = randomUUID();
          try {
            await trx
              .insertInto('teams')
              .values({
                id: teamId,
                name: team.address,
                display_name: team.teamName,
                disabled: 0,
                local_enabled: 1,
                google_enabled: 0,
                azure_enabled: 0,
                auth0_enabled: 0,
                auth0_display_name: null,
                brand: null,
                created_at: team.now,
                checklist: 1,
              })
              .execute();
          } catch (error) {
            if (isUniqueViolation(error)) throw new AddressTaken();
            throw error;
          }
          const userId = await insertMember(trx, {
            teamId,
            email: row.email,
            name: row.name,
            passwordHash: team.passwordHash,
            permissions: ['OWNER'],
            language: row.language,
            now: team.now,
          });
          await recordAudit(trx, {
            teamId,
            actor: { id: userId, name: row.name, email: row.email },
            action: 'team.created',
            target: team.teamName,
            now: team.now,
          });
          return { ok: true, userId, teamId, email: row.email };
        });
      } catch (error) {
        if (error instanceof AddressTaken) return { ok: false, reason: 'taken' };
        throw error;
      }
    },
  };
}

export type SignUpsRepository = ReturnType<typeof signUpsRepository>;
