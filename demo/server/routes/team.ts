import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Team } from '../db/schema';

/** The longest path parameter the router passes to a route (Fastify's default, 100, would answer 414). */
export const MAX_PARAM_LENGTH = 2048;

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
    ...(team.apple_enabled ? { appleOptions: {} } : {}),
  };
}

export async function teamRoutes(app: FastifyInstance): Promise<void> {
  const { teams } = app.services.repos;
  app.get(
    '/api/team/public/:team',
    // Any name the router lets through (MAX_PARAM_LENGTH) is looked up: one too long to exist is an
    // unknown team like any other, not a different error.
    {
      config: { auth: 'none' },
      schema: { params: Type.Object({ team: Type.String({ minLength: 1, maxLength: MAX_PARAM_LENGTH }) }) },
    },
    async (request, reply) => {
      const { team: key } = request.params as { team: string };
      const normalised = key.trim().toLowerCase();
      const team = await teams.findByNameOrId(normalised, key);
      if (!team) return reply.code(404).send({ message: 'team not found' });
      return publicTeam(team);
    },
  );
}
