import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../plugins/auth';
import { userinfoSchema } from '../../../src/contract/schemas/user';

/** GET /connect/userinfo: who the access token belongs to (access tokens only). */
export const userinfoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/connect/userinfo', { config: { auth: 'bearer' }, schema: userinfoSchema }, async (request) => {
    const { user, teamName } = callerOf(request);
    const groups = await request.server.services.repos.groups.namesOf(user);
    return {
      sub: user.id,
      name: user.name,
      email: user.email,
      created_at: new Date(user.created_at).toISOString(),
      team: teamName,
      team_id: user.team_id,
      groups,
    };
  });
};
