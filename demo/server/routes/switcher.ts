import type { FastifyInstance } from 'fastify';
import { requireBearer } from '../lib/bearer';

/** GET /api/switcher: the suite dashboard's address for the signed-in user, if there is one. */
export async function switcherRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/switcher', async (request, reply) => {
    if (!(await requireBearer(request, reply))) return reply;
    return { dashboard: app.services.config.dashboardUrl };
  });
}
