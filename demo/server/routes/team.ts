import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { Team } from '../db/schema';
import { auth0DisplayName } from '../lib/external';
import { teamPublicSchema, type TeamPublicReply } from '../../../src/contract/schemas/team';

/** Team public details (spec §3): an option object present = that sign-in method is enabled. */
function publicTeam(
  team: Team,
  ssoDomains: Array<{ domain: string; required: boolean }>,
): Static<typeof TeamPublicReply> {
  return {
    name: team.name,
    displayName: team.display_name,
    teamDisabled: team.disabled === 1,
    ...(team.local_enabled ? { localOptions: {} } : {}),
    ...(team.google_enabled ? { googleOptions: {} } : {}),
    ...(team.azure_enabled ? { azureOptions: {} } : {}),
    ...(team.auth0_enabled ? { auth0Options: { displayName: auth0DisplayName(team) } } : {}),
    ...(team.apple_enabled ? { appleOptions: {} } : {}),
    ...(team.passkeys_enabled ? { passkeyOptions: {} } : {}),
    ...(team.email_code_enabled ? { emailCodeOptions: {} } : {}),
    ...(team.require_two_step ? { requireTwoStep: true as const } : {}),
    ...(ssoDomains.length ? { ssoDomains } : {}),
  };
}

export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { teams, domains } = app.services.repos;
  app.get(
    '/api/team/public/:team',
    { config: { auth: 'none' }, schema: teamPublicSchema },
    async (request, reply) => {
      const { team: key } = request.params;
      const normalised = key.trim().toLowerCase();
      const team = await teams.findByNameOrId(normalised, key);
      if (!team) return reply.code(404).send({ message: 'team not found' });
      // Public as the DNS records that proved them: a domain's route says nothing about an address.
      const routes = await domains.routes(team.id);
      return publicTeam(
        team,
        routes.map((route) => ({ domain: route.domain, required: route.require_sso === 1 })),
      );
    },
  );
};
