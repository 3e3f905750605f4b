import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Team } from '../db/schema';

/** Team public details (spec §3): an option object present = that sign-in method is enabled. */
export function publicTeam(team: Team) {
  return {
    name: team.name,
    displayName: team.display_name,
    teamDisabled: team.disabled === 1,
    ...(team.local_enabled ? { localOptions: {} } : {}),
    ...(team.google_enabled ? { googleOptions: {} } : {}),
    ...(team.azure_enabled ? { azureOptions: {} } : {}),
    ...(team.auth0_enabled ? { auth0Options: { displayName: team.auth0_display_name ?? 'Auth0' } } : {}),
  };
}

export async function teamRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.services;
  app.get(
    '/api/team/public/:team',
    { schema: { params: Type.Object({ team: Type.String({ minLength: 1, maxLength: 100 }) }) } },
    async (request, reply) => {
      const { team: key } = request.params as { team: string };
      const normalised = key.trim().toLowerCase();
      const team = await db
        .selectFrom('teams')
        .selectAll()
        .where((eb) => eb.or([eb('name', '=', normalised), eb('id', '=', key)]))
        .executeTakeFirst();
      if (!team) return reply.code(404).send({ message: 'team not found' });
      return publicTeam(team);
    },
  );
}
