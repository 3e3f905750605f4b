import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf, signedInSession } from '../plugins/auth';
import { homeTokenSchema, policiesSchema } from '../../../src/contract/schemas/developer';

/** Internal policies are for the team's owners, and only when asked for. */
const mayShowInternal = (permissions: Set<string>) => permissions.has('OWNER');

/**
 * Developer tools (spec §2, §7): the policy definitions, and `POST /home/token`, which issues an access
 * token carrying the chosen policies as scopes (each must exist and be allowed by one of the user's
 * permissions) plus an id token, and sends the browser to the success page with both in the fragment.
 */
export const developerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, tokens, config } = app.services;

  app.get('/policy/raw', { config: { auth: 'bearer' }, schema: policiesSchema }, async (request) => {
    const caller = callerOf(request);
    const internal =
      request.query.showinternal === 'true' &&
      mayShowInternal(await repos.users.permissionsOf(caller.user.id));
    return (await repos.policies.list(internal)).map((policy) => ({ ...policy, scopes: [policy.name] }));
  });

  app.post(
    '/home/token',
    {
      config: { body: 'form', auth: 'session', signIn: { returnUrl: '/manage/dev', pagesOnly: true } },
      schema: homeTokenSchema,
    },
    async (request, reply) => {
      // A browser form (navigation) gets its refusal as a redirect back to the form; API clients get JSON.
      const browser = (request.headers.accept ?? '').includes('text/html');
      const refuse = (status: 400, code: string, message: string) =>
        browser
          ? reply.redirect(`/manage/dev?${new URLSearchParams({ Error: code })}`, 303)
          : reply.code(status).send({ message });

      const session = signedInSession(request);
      const requested = [...new Set([request.body.scope ?? []].flat())];
      if (requested.length === 0) return refuse(400, 'NoScope', 'choose at least one policy');
      const policies = await repos.policies.findByNames(requested);
      if (policies.length !== requested.length) return refuse(400, 'UnknownScope', 'unknown scope');
      const granted = await repos.users.permissionsOf(session.user_id);
      const forbidden = policies.filter(
        (p) => !p.permissions.split(',').some((permission) => granted.has(permission)),
      );
      if (forbidden.length)
        return refuse(400, 'ScopeNotAllowed', `not allowed: ${forbidden.map((p) => p.name).join(', ')}`);

      const subject = await repos.users.findMember(session.user_id);
      if (!subject) throw new Error('the signed-in user is gone');
      // Bound to the session it was made in: signing out (or a password reset) ends it too.
      const groups = await repos.groups.namesOf({ id: subject.userId });
      const signIn = { amr: session.amr.split(' '), authTime: session.created_at };
      const [accessToken, idToken] = await Promise.all([
        tokens.accessToken(subject, config.portalClientId, requested, session.public_id, signIn),
        tokens.idToken(subject, config.portalClientId, groups, signIn),
      ]);
      // The tokens travel in the fragment (never sent to a server) of a page that leaks no referrer.
      reply.header('Referrer-Policy', 'no-referrer').header('Cache-Control', 'no-store');
      const fragment = new URLSearchParams({ access_token: accessToken, id_token: idToken });
      return reply.redirect(`/manage/dev/success#${fragment}`, 303);
    },
  );
};
