import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { switcherSchema } from '../../../src/contract/schemas/user';

/** GET /api/switcher: the suite dashboard's address for the signed-in user, if there is one. */
export const switcherRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/switcher', { config: { auth: 'bearer' }, schema: switcherSchema }, async () => {
    return { dashboard: app.services.config.dashboardUrl };
  });
};
