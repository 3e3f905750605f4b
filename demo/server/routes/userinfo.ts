import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../plugins/auth';

/** The answer's shape: it also makes Fastify serialise it with a compiled serialiser (the route is busy). */
const Userinfo = Type.Object({
  sub: Type.String(),
  name: Type.String(),
  email: Type.String(),
  created_at: Type.String(),
  team: Type.String(),
  team_id: Type.String(),
  /** The names of the user's groups in their team (empty when none). */
  groups: Type.Array(Type.String()),
});

/** GET /connect/userinfo: who the access token belongs to (access tokens only). */
export async function userinfoRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/connect/userinfo',
    { config: { auth: 'bearer' }, schema: { response: { 200: Userinfo } } },
    async (request) => {
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
    },
  );
}
