import type { Kysely } from 'kysely';
import type { Database, ProviderKind, Team, TeamProvidersTable } from './schema';

/** Teams and the providers each one is configured with. */
export function teamsRepository(db: Kysely<Database>) {
  return {
    /** The team with this (normalised) name. */
    findByName(name: string): Promise<Team | undefined> {
      return db.selectFrom('teams').selectAll().where('name', '=', name).executeTakeFirst();
    },

    findById(id: string): Promise<Team | undefined> {
      return db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The team a public address names: by its (normalised) name or by its id. */
    findByNameOrId(name: string, id: string): Promise<Team | undefined> {
      return db
        .selectFrom('teams')
        .selectAll()
        .where((eb) => eb.or([eb('name', '=', name), eb('id', '=', id)]))
        .executeTakeFirst();
    },

    /** The team's display name and mail brand (for a mail to one of its users); throws if it is gone. */
    brandingOf(teamId: string): Promise<Pick<Team, 'display_name' | 'brand'>> {
      return db
        .selectFrom('teams')
        .select(['display_name', 'brand'])
        .where('id', '=', teamId)
        .executeTakeFirstOrThrow();
    },

    /** The team's configuration of a provider (issuer, client, tenant and domain rules), if it has one. */
    findProvider(teamId: string, kind: ProviderKind): Promise<TeamProvidersTable | undefined> {
      return db
        .selectFrom('team_providers')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('kind', '=', kind)
        .executeTakeFirst();
    },
  };
}

export type TeamsRepository = ReturnType<typeof teamsRepository>;
