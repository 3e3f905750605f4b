import type { Kysely } from 'kysely';
import type { Database, TeamApiClientsTable } from './schema';

/** A team's API credentials (client credentials grant, RFC 6749 §4.4), stored by their secret's SHA-256. */
export function apiClientsRepository(db: Kysely<Database>) {
  return {
    find(clientId: string): Promise<TeamApiClientsTable | undefined> {
      return db
        .selectFrom('team_api_clients')
        .selectAll()
        .where('client_id', '=', clientId)
        .executeTakeFirst();
    },

    /** Whether the client still exists for the team a token names (a removed credential's tokens stop). */
    async existsIn(clientId: string, teamId: string): Promise<boolean> {
      const row = await db
        .selectFrom('team_api_clients')
        .select('client_id')
        .where('client_id', '=', clientId)
        .where('team_id', '=', teamId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type ApiClientsRepository = ReturnType<typeof apiClientsRepository>;
