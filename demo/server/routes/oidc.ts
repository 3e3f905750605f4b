import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors as oidcErrors } from 'oidc-provider';
import { cookiesOf } from '../lib/cookies';
import { signInPageLanguage, uiLocalesLanguage } from '../lib/language';
import { endAppSessions } from '../lib/app-logout';
import { appTeam, findClient, grantScopes, isThirdParty } from '../lib/oidc-grants';
import { freshLoginSince, signInScreenAddress } from '../lib/oidc-interaction';
import { deviceTooManyPage } from '../lib/device-pages';
import { clientAddress } from '../lib/normalise';
import { PLAIN_PAGE_STYLESHEET, plainPageCss } from '../lib/plain-page';
import {
  apiResource,
  OIDC_PREFIX,
  OIDC_ROUTES,
  OpenIdProvider,
  REFUSAL_PAGE_CSP,
  refusalPage,
} from '../lib/openid-provider';
import { cookieOptions, secureCookies, SESSION_COOKIE, sessionOf } from '../lib/session';
import { LANGUAGE_COOKIE, matchLanguage, type Language } from '../../../src/contract/languages';
import { interactionSchema, plainPageCssSchema, providerSchema } from '../../../src/contract/schemas/oidc';

/** A request as the provider reads it behind another framework: the parsed body and the full path. */
type ForwardedRequest = IncomingMessage & { body?: unknown; originalUrl?: string; ip?: string };

/** Methods that end no session: the apps need telling only after the others. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

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
 * The OpenID Provider (lib/openid-provider.ts) mounted as a route under OIDC_PREFIX: every
 * request under it goes to the provider, except the interaction route, which is the server's own.
 * docs/decisions/openid-provider.md.
 */
export async function registerOpenIdProvider(app: FastifyInstance): Promise<void> {
  const { config, repos, keys, clock, sessions } = app.services;
  const portalSession = (header: string | undefined) =>
    sessions.resolve(header ? app.parseCookie(header)[SESSION_COOKIE] : undefined);
  /** Tell the apps of every portal session that has ended (lib/app-logout.ts); never fails its caller. */
  const endEndedAppSessions = (log: FastifyBaseLogger) =>
    endAppSessions({ repos, clock, oidc, log }).catch((error: unknown) =>
      log.error({ err: error }, 'ending the apps’ sessions failed'),
    );
  const oidc = new OpenIdProvider({
    config,
    repos,
    keys,
    clock,
    clients: config.oidcClients,
    portalSession,
    // An app's sign-out ends the portal session as the portal's own sign-out does (routes/account.ts).
    async endPortalSession(header) {
      const session = await portalSession(header);
      if (!session) return null;
      await sessions.revoke(session.id_hash);
      // The provider told the apps of its own session; any other bound to this portal session is
      // swept here (the hook below passes over GETs, and the provider's sign-out is one).
      void endEndedAppSessions(app.log);
      const options = { ...cookieOptions(config, true), secure: secureCookies(config) };
      return app.serializeCookie(SESSION_COOKIE, '', { ...options, expires: new Date(0) });
    },
  });
  app.decorate('oidc', oidc);
  // Whichever request ended portal sessions (sign-out, the sessions screen, a password reset, a member
  // disabled or removed, an account deleted), its apps are told once the answer has gone: never a GET.
  // A callback hook: every answer of the server passes it, and a GET needs no promise.
  app.addHook('onResponse', (request, _reply, done) => {
    if (READS.has(request.method)) return done();
    void endEndedAppSessions(request.log).then(() => done());
  });

  // A route, not middleware: only the provider's own addresses pay for it
  // (docs/decisions/openid-provider.md).
  // The interaction route below is more specific and stays the server's. The provider checks its own
  // forms' anti-forgery tokens and reads the body Fastify parsed.
  app.route({
    method: ['GET', 'POST', 'OPTIONS'],
    url: `${OIDC_PREFIX}/*`,
    config: { auth: 'none', forgery: 'provider' },
    exposeHeadRoute: false,
    schema: providerSchema,
    handler(request, reply) {
      const raw = request.raw as ForwardedRequest;
      const url = raw.url ?? '';
      raw.body = request.body;
      raw.originalUrl = url;
      raw.url = url.slice(OIDC_PREFIX.length);
      reply.hijack();
      const provider = callbackOf(oidc.current());
      if (request.method === 'POST' && raw.url.split('?')[0] === OIDC_ROUTES.codeVerification) {
        void deviceCodeGuesses(app, raw, reply.raw).then(
          (refused) => {
            if (!refused) provider(raw, reply.raw);
          },
          (error: unknown) => {
            request.log.error({ err: error }, 'counting a user code failed');
            reply.raw.writeHead(500).end();
          },
        );
        return;
      }
      provider(raw, reply.raw);
    },
  });
}

/** A user code is short enough to guess: an address may try so many in a window (design §4). */
const DEVICE_CODE_LIMIT = { max: 10, windowMs: 15 * 60_000 };

/** Count a user code tried from this address; past the limit answer a page saying so (true). */
async function deviceCodeGuesses(app: FastifyInstance, req: ForwardedRequest, res: ServerResponse) {
  const { allowed, retryAfter } = await app.services.limiter.hit(
    `device-code:ip:${clientAddress(req.ip ?? '')}`,
    DEVICE_CODE_LIMIT,
  );
  if (allowed) return false;
  const cookie = req.headers.cookie ? app.parseCookie(req.headers.cookie)[LANGUAGE_COOKIE] : undefined;
  const language = matchLanguage(cookie) ?? signInPageLanguage(undefined, req.headers['accept-language']);
  res
    .writeHead(429, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': REFUSAL_PAGE_CSP,
      'retry-after': String(retryAfter),
    })
    .end(deviceTooManyPage(language));
  return true;
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
 * the consent of the deployment's own apps is given at once (a third-party app's is asked for on the
 * portal's consent screen); the browser goes back to the provider,
 * which sends it on to the app. Without one, or when the app wants a fresher sign-in than the session's
 * (`prompt=login`, `max_age`), the browser goes to the portal's sign-in screen, which comes back here
 * once signed in (lib/oidc-interaction.ts).
 */
export const oidcRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config, clock, repos } = app.services;

  /** An expired or foreign request: a page in the browser's language, never a redirect. */
  const refuse = (reply: FastifyReply, language: Language, code: string) =>
    reply
      .code(400)
      .type('text/html; charset=utf-8')
      .header('Content-Security-Policy', REFUSAL_PAGE_CSP)
      .send(refusalPage(language, code));

  // The provider's plain pages in the deployment's brand (lib/plain-page.ts).
  const pagesCss = plainPageCss(config.brand);
  app.get(
    PLAIN_PAGE_STYLESHEET,
    { config: { auth: 'none' }, schema: plainPageCssSchema },
    async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=300').send(pagesCss),
  );

  app.get(
    `${OIDC_PREFIX}/interaction/:uid`,
    { config: { auth: 'none' }, schema: interactionSchema },
    async (request, reply) => {
      const provider = app.oidc.current();
      const acceptLanguage = request.headers['accept-language'];
      let details;
      try {
        details = await provider.interactionDetails(request.raw, reply.raw);
      } catch (error) {
        if (!(error instanceof oidcErrors.SessionNotFound)) throw error;
        return refuse(reply, signInPageLanguage(undefined, acceptLanguage), error.error);
      }
      if (details.uid !== request.params.uid) {
        return refuse(
          reply,
          signInPageLanguage(details.params.ui_locales, acceptLanguage),
          'invalid_request',
        );
      }
      // The app's `ui_locales` is the sign-in screen's language through the language cookie the
      // elements read before the browser's languages (src/state/preferences.ts; not httpOnly: the page
      // reads it). It is a hint: a language the user chose stays, and the app's lasts this browser
      // session only, never a year as the user's own choice does.
      const language = uiLocalesLanguage(details.params.ui_locales);
      if (language && !cookiesOf(request)[LANGUAGE_COOKIE])
        reply.setCookie(LANGUAGE_COOKIE, language, { path: '/', sameSite: 'lax' });
      const clientId = String(details.params.client_id);
      const client = await findClient(provider, clientId);
      const team = appTeam(client);
      const session = await sessionOf(request);
      if (!session) return reply.redirect(signInScreenAddress(details, undefined, team), 303);
      const member = await repos.users.findMember(session.user_id);
      // A team's app signs in that team's members only: anyone else's request ends with an error for
      // the app, never a code (and never a silent switch of the portal's signed-in user).
      if (team && member?.teamName !== team) {
        const returnTo = await provider.interactionResult(request.raw, reply.raw, {
          error: 'access_denied',
          error_description: `this app signs in members of the team ${team} only`,
        });
        return reply.redirect(returnTo, 303);
      }
      const since = freshLoginSince(details, clock.now() / 1000);
      if (since !== null && session.created_at < since * 1000) {
        const again = member && { team: member.teamName, email: member.email };
        return reply.redirect(signInScreenAddress(details, again, team), 303);
      }
      const accountId = session.user_id;
      const login = {
        accountId,
        amr: session.amr.split(' ').filter(Boolean),
        ts: Math.floor(session.created_at / 1000),
      };
      // A third-party app: the login alone; the provider then goes on with the user's remembered
      // grant, or asks for consent, which the portal's consent screen answers (routes/apps.ts).
      if (isThirdParty(client)) {
        if (details.prompt.name === 'consent' && details.session?.accountId === accountId)
          return reply.redirect(`/consent/${encodeURIComponent(details.uid)}`, 303);
        const returnTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { login },
          { mergeWithLastSubmission: false },
        );
        return reply.redirect(returnTo, 303);
      }
      const scope = typeof details.params.scope === 'string' ? details.params.scope : 'openid';
      const grantId = await grantScopes(provider, apiResource(config), {
        grantId: details.grantId,
        accountId,
        clientId,
        scope,
      });
      const returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        { login, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(returnTo, 303);
    },
  );
};
