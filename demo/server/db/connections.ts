import type { Insertable, Kysely } from 'kysely';
import { SAML_REQUEST_MS, type SamlPurpose } from '../../../src/contract/connections';
import type { AuditAction } from '../../../src/contract/team-rules';
import { recordAudit, type Actor } from './audit';
import { isUniqueViolation } from './unique';
import type { Database, TeamConnectionsTable } from './schema';

/**
 * A team's connections to its company's identity provider, with what SAML needs kept across nodes:
 * the requests sent and not yet answered (each answer spends its request in one conditional delete,
 * so two nodes cannot both accept it) and the assertions already used (a second use is a replay).
 * Every change an admin makes is in the team's audit trail, in the transaction of the change.
 */
export function connectionsRepository(db: Kysely<Database>) {
  const find = (id: string) =>
    db.selectFrom('team_connections').selectAll().where('id', '=', id).executeTakeFirst();

  return {
    /** A new connection; audited when an admin made it (`actor`). */
    async create(row: Insertable<TeamConnectionsTable>, actor?: Actor): Promise<TeamConnectionsTable> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('team_connections').values(row).execute();
        if (actor)
          await recordAudit(trx, {
            teamId: row.team_id,
            actor,
            action: 'connection.added',
            target: row.name,
            now: row.created_at,
          });
      });
      return (await find(row.id))!;
    },

    /** The team's connection with this id, if it has one. */
    async ofTeam(teamId: string, id: string): Promise<TeamConnectionsTable | undefined> {
      const row = await find(id);
      return row?.team_id === teamId ? row : undefined;
    },

    /**
     * Change the connection as `actor` did (`action` says what, for the audit trail): the row after,
     * or undefined when it is gone.
     */
    async change(
      row: TeamConnectionsTable,
      changes: Partial<TeamConnectionsTable>,
      actor: Actor,
      action: AuditAction,
      now: number,
    ): Promise<TeamConnectionsTable | undefined> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('team_connections')
          .set({ ...changes, updated_at: now })
          .where('id', '=', row.id)
          .executeTakeFirst();
        if (!result.numUpdatedRows) return undefined;
        await recordAudit(trx, { teamId: row.team_id, actor, action, target: changes.name ?? row.name, now });
        return { ...row, ...changes, updated_at: now };
      });
    },

    async remove(row: TeamConnectionsTable, actor: Actor, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom('team_connections').where('id', '=', row.id).executeTakeFirst();
        if (!result.numDeletedRows) return false;
        await recordAudit(trx, {
          teamId: row.team_id,
          actor,
          action: 'connection.removed',
          target: row.name,
          now,
        });
        return true;
      });
    },

    /** A test sign-in's result; a passed one lets the connection be enabled. */
    async recordTest(id: string, result: unknown, passed: boolean, now: number): Promise<void> {
      await db
        .updateTable('team_connections')
        .set({ last_test: JSON.stringify(result), ...(passed ? { tested_at: now } : {}) })
        .where('id', '=', id)
        .execute();
    },

    find,

    list(teamId: string): Promise<TeamConnectionsTable[]> {
      return db
        .selectFrom('team_connections')
        .selectAll()
        .where('team_id', '=', teamId)
        .orderBy('name')
        .execute();
    },

    /**
     * A request sent; a sign-in's is bound to its browser and knows where to go after. Requests whose
     * answer never came (the tab closed) go on the way, as used assertions do.
     */
    async saveRequest(
      id: string,
      connectionId: string,
      purpose: SamlPurpose,
      now: number,
      binding?: {
        browserHash: string | null;
        returnUrl: string | null;
        codeVerifier?: string;
        nonce?: string;
      },
    ) {
      await db.deleteFrom('saml_requests').where('expires_at', '<=', now).execute();
      await db
        .insertInto('saml_requests')
        .values({
          id,
          connection_id: connectionId,
          purpose,
          expires_at: now + SAML_REQUEST_MS,
          browser_hash: binding?.browserHash ?? null,
          return_url: binding?.returnUrl ?? null,
          code_verifier: binding?.codeVerifier ?? null,
          nonce: binding?.nonce ?? null,
        })
        .execute();
    },

    /** Whether the request is still waiting for its answer, sent for `purpose` by this connection. */
    async pending(id: string, connectionId: string, purpose: SamlPurpose, now: number): Promise<boolean> {
      const row = await db
        .selectFrom('saml_requests')
        .select('id')
        .where('id', '=', id)
        .where('connection_id', '=', connectionId)
        .where('purpose', '=', purpose)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Spend the request an answer says it answers: its purpose and binding, or undefined when this site
     * did not send it to this connection, it expired, or it was answered already.
     */
    spendRequest(id: string, connectionId: string, now: number) {
      return db
        .deleteFrom('saml_requests')
        .where('id', '=', id)
        .where('connection_id', '=', connectionId)
        .where('expires_at', '>', now)
        .returning(['purpose', 'browser_hash', 'return_url'])
        .executeTakeFirst();
    },

    /**
     * Spend the request an OpenID Connect answer's state names, whichever connection sent it: the
     * request, or undefined when there is none waiting.
     */
    spendAnyRequest(id: string, now: number) {
      return db
        .deleteFrom('saml_requests')
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Record an assertion as used until it expires: false when it was used before (a replay). Expired
     * records go on the way.
     */
    async useAssertion(connectionId: string, assertionId: string, expiresAt: number, now: number) {
      await db.deleteFrom('saml_assertions').where('expires_at', '<=', now).execute();
      try {
        await db
          .insertInto('saml_assertions')
          .values({ connection_id: connectionId, assertion_id: assertionId, expires_at: expiresAt })
          .execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
  };
}
