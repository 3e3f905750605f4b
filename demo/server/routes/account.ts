import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { recordMemberEvent } from '../lib/activity';
import { clearSessionCookies, issueXsrfCookie, sessionOf, setSessionOf } from '../lib/session';
import { checkSchema, logoutSchema } from '../../../src/contract/schemas/account';

/** Session calls: check and sign-out. */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { sessions, config } = app.services;

  /** POST /account/check: is the caller signed in, and the public handle of the session if so. */
  app.post(
    '/account/check',
    { config: { body: 'none', auth: 'none' }, schema: checkSchema },
    async (request) => {
      const session = await sessionOf(request);
      return session ? { authenticated: true, session: session.public_id } : { authenticated: false };
    },
  );

  /**
   * POST /account/logout (form, anti-forgery): revoke the session server-side, clear the session cookie,
   * give an anonymous XSRF token, then 303 to `/` — or 204 when the caller asked for JSON (the elements).
   */
  app.post(
    '/account/logout',
    { config: { body: 'form', auth: 'none' }, schema: logoutSchema },
    async (request, reply) => {
      const session = await sessionOf(request);
      if (session) {
        await sessions.revoke(session.id_hash);
        await recordMemberEvent(request, session.user_id, 'session.signedOut');
      }
      setSessionOf(request, null);
      clearSessionCookies(reply, config);
      await issueXsrfCookie(request, reply);
      if ((request.headers.accept ?? '').includes('application/json')) return reply.code(204).send();
      return reply.redirect('/', 303);
    },
  );
};
