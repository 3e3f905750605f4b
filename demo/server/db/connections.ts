import type { Insertable, Kysely } from 'kysely';
import type { SamlPurpose } from '../../../src/contract/connections';
import { isUniqueViolation } from './unique';
import type { Database, TeamConnectionsTable } from './schema';

/**
 * A team's connections to its company's identity provider, with what SAML needs kept across nodes:
 * the requests sent and not yet answered (each answer spends its request in one conditional delete,
 * so two nodes cannot both accept it) and the assertions already used (a second use is a replay).
 */
export function connectionsRepository(db: Kysely<Database>) {
  return {
    async create(row: Insertable<TeamConnectionsTable>): Promise<TeamConnectionsTable> {
      await db.insertInto('team_connections').values(row).execute();
      return (await db
        .selectFrom('team_connections')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow()) as TeamConnectionsTable;
    },

    find(id: string): Promise<TeamConnectionsTable | undefined> {
      return db.selectFrom('team_connections').selectAll().where('id', '=', id).executeTakeFirst();
    },

    list(teamId: string): Promise<TeamConnectionsTable[]> {
      return db
        .selectFrom('team_connections')
        .selectAll()
        .where('team_id', '=', teamId)
        .orderBy('name')
        .execute();
    },

    /** A test sign-in passed now: the connection may be enabled. */
    async tested(id: string, now: number): Promise<void> {
      await db.updateTable('team_connections').set({ tested_at: now }).where('id', '=', id).execute();
    },

    async saveRequest(id: string, connectionId: string, purpose: SamlPurpose, expiresAt: number) {
      await db
        .insertInto('saml_requests')
        .values({ id, connection_id: connectionId, purpose, expires_at: expiresAt })
        .execute();
    },

    /**
     * Spend the request an answer says it answers: its purpose, or undefined when this site did not
     * send it to this connection, it expired, or it was answered already.
     */
    async spendRequest(id: string, connectionId: string, now: number): Promise<SamlPurpose | undefined> {
      const spent = await db
        .deleteFrom('saml_requests')
        .where('id', '=', id)
        .where('connection_id', '=', connectionId)
        .where('expires_at', '>', now)
        .returning('purpose')
        .executeTakeFirst();
      return spent?.purpose;
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
