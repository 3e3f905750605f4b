import type { FastifyInstance } from 'fastify';

/** GET /api/switcher: the suite dashboard's address for the signed-in user, if there is one. */
export async function switcherRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/switcher', { config: { auth: 'bearer' } }, async () => {
    return { dashboard: app.services.config.dashboardUrl };
  });
}
