import type { IncomingMessage, ServerResponse } from 'node:http';
import middie from '@fastify/middie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors as oidcErrors } from 'oidc-provider';
import { apiResource, OIDC_PREFIX, OpenIdProvider } from '../lib/openid-provider';
import { SESSION_COOKIE } from '../lib/sessions';
import { sessionOf } from '../plugins/cookies';
import { interactionSchema } from '../../../src/contract/schemas/oidc';

/** A request as the provider reads it behind another framework: the parsed body and the full path. */
type ForwardedRequest = IncomingMessage & { body?: unknown; originalUrl?: string };

const callbacks = new WeakMap<Provider, (req: IncomingMessage, res: ServerResponse) => void>();
function callbackOf(provider: Provider) {
  let callback = callbacks.get(provider);
  if (!callback) {
    callback = provider.callback();
    callbacks.set(provider, callback);
  }
  return callback;
}

/**
 * The OpenID Provider (lib/openid-provider.ts) mounted with @fastify/middie under OIDC_PREFIX: every
 * request under it goes to the provider, except the interaction route, which is the server's own.
 * docs/decisions/openid-provider.md.
 */
export async function registerOpenIdProvider(app: FastifyInstance): Promise<void> {
  const { config, repos, keys, clock, sessions } = app.services;
  const oidc = new OpenIdProvider({
    config,
    repos,
    keys,
    clock,
    clients: config.oidcClients,
    portalSession: (header) => sessions.resolve(header ? app.parseCookie(header)[SESSION_COOKIE] : undefined),
  });
  app.decorate('oidc', oidc);

  await app.register(middie, { hook: 'onRequest' });
  app.use(OIDC_PREFIX, (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (req.url?.startsWith('/interaction/')) return next();
    callbackOf(oidc.current())(req, res);
  });
}

/**
 * Hand a token request to the provider's token endpoint (the authorization code and refresh token
 * grants of /connect/token): the body Fastify parsed goes with it, as the provider reads it from
 * `req.body` when the stream was read.
 */
export function forwardToProvider(request: FastifyRequest, reply: FastifyReply, path: string): void {
  const raw = request.raw as ForwardedRequest;
  raw.body = request.body;
  raw.originalUrl = `${OIDC_PREFIX}${path}`;
  raw.url = path;
  reply.hijack();
  callbackOf(request.server.oidc.current())(raw, reply.raw);
}

/**
 * GET /oidc/interaction/:uid — where the provider sends the browser to sign in. With a portal session,
 * the provider's login is finished with its user (how and when they signed in: `amr`, `auth_time`), and
 * the consent of the portal's own clients is given at once; the browser goes back to the provider,
 * which sends it on to the app. Without one, the browser goes to the portal's sign-in screen (the
 * team's own when the request names it with `team`), which comes back here once signed in.
 */
export const oidcRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.services;

  app.get(
    `${OIDC_PREFIX}/interaction/:uid`,
    { config: { auth: 'none' }, schema: interactionSchema },
    async (request, reply) => {
      const provider = app.oidc.current();
      let details;
      try {
        details = await provider.interactionDetails(request.raw, reply.raw);
      } catch (error) {
        if (!(error instanceof oidcErrors.SessionNotFound)) throw error;
        return reply.code(400).send({
          message: 'this sign-in request has expired or is not this browser’s: start again from the app',
        });
      }
      if (details.uid !== request.params.uid) {
        return reply.code(400).send({ message: 'this sign-in request is not this browser’s' });
      }
      const session = await sessionOf(request);
      if (!session) {
        const here = `${OIDC_PREFIX}/interaction/${details.uid}`;
        const team = typeof details.params.team === 'string' ? details.params.team : '';
        const screen = /^[a-z0-9-]{1,63}$/.test(team) ? `/login/${team}` : '/login/team';
        return reply.redirect(`${screen}?${new URLSearchParams({ ReturnUrl: here })}`, 303);
      }
      const accountId = session.user_id;
      const clientId = String(details.params.client_id);
      const found = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
      // A grant of another user (the portal was signed in as someone else since) is not reused.
      const grant = found?.accountId === accountId ? found : new provider.Grant({ accountId, clientId });
      const scope = typeof details.params.scope === 'string' ? details.params.scope : 'openid';
      grant.addOIDCScope(scope);
      grant.addResourceScope(apiResource(config), scope);
      const grantId = await grant.save();
      const returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        {
          login: {
            accountId,
            amr: session.amr.split(' ').filter(Boolean),
            ts: Math.floor(session.created_at / 1000),
          },
          consent: { grantId },
        },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(returnTo, 303);
    },
  );
};
