import type { FastifyInstance } from 'fastify';
import { requireBearer } from '../lib/bearer';

/** GET /connect/userinfo: who the access token belongs to (access tokens only). */
export async function userinfoRoutes(app: FastifyInstance): Promise<void> {
  app.get('/connect/userinfo', async (request, reply) => {
    const caller = await requireBearer(request, reply);
    if (!caller) return reply;
    const { user, teamName } = caller;
    return {
      sub: user.id,
      name: user.name,
      email: user.email,
      created_at: new Date(user.created_at).toISOString(),
      team: teamName,
      team_id: user.team_id,
    };
  });
}
