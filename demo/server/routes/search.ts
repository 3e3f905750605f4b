import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isAdmin } from '../../../src/contract/team-rules';
import { callerOf } from '../plugins/auth';
import { errors } from '../../../src/contract/schemas/common';
import { SEARCH_MEMBERS_MAX, SearchQuery, SearchResult } from '../../../src/contract/schemas/team';
import { toMember } from './members';

/**
 * The portal's search (`/search?q=`): the screens are matched by the element itself; this finds the
 * team's members, for team admins only — anyone else gets an empty list, not an error, so the page
 * shows its screen results either way.
 */
export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock } = app.services;
  app.get(
    '/api/search',
    {
      config: { auth: 'bearer' },
      schema: { querystring: SearchQuery, response: { 200: SearchResult, ...errors(400, 401, 500) } },
    },
    async (request) => {
      const caller = callerOf(request);
      if (!isAdmin(await repos.users.permissionsOf(caller.user.id))) return { members: [] };
      const page = await repos.members.list(caller.user.team_id, request.query.q, null, SEARCH_MEMBERS_MAX);
      return { members: page.members.map((row) => toMember(row, clock.now())) };
    },
  );
};
