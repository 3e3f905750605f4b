import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, X-XSRF-TOKEN';
/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';

/**
 * CORS for the configured origins (`CORS_ORIGINS`), with credentials: the suite apps and partner sites
 * call this server from their own pages (design §4). An allowed origin gets its own origin back and
 * `Access-Control-Allow-Credentials`; any other origin gets no CORS header at all, so its pages cannot
 * read an answer. Every answer says `Vary: Origin`, since it depends on the origin.
 *
 * A preflight (`OPTIONS` from an allowed origin) is answered here, before any route or hook that would
 * want credentials the browser does not send with it; from any other origin it is a 404. Why this is not
 * `@fastify/cors`: docs/decisions/own-cors-hook.md. The protocol's calls below are open to every origin,
 * without credentials.
 */
export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  const allowed = new Set(origins);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('Vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined) return done();
    if (!allowed.has(origin)) {
      if (PROTOCOL_PATHS.has(request.url.split('?')[0]!)) return protocolCors(request, reply, done);
      return done();
    }
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Access-Control-Allow-Credentials', 'true');
    if (request.method !== 'OPTIONS') return done();
    if (!request.headers['access-control-request-method']) {
      reply.code(400).send({ message: 'a preflight request needs Access-Control-Request-Method' });
      return;
    }
    reply
      .code(204)
      .header('Access-Control-Allow-Methods', ALLOW_METHODS)
      .header('Access-Control-Allow-Headers', ALLOW_HEADERS)
      .header('Access-Control-Max-Age', PREFLIGHT_MAX_AGE)
      .header('Content-Length', '0')
      .send();
  });
  // Preflights from other origins reach no route: the not-found answer, like any unknown address.
}

/**
 * The OpenID Connect calls an app makes from its own pages, whatever its origin (a team's single-page
 * app is on an origin the operator never listed): discovery, the keys, the token endpoint and
 * userinfo. Browsers send no cookie with them, so any origin may read their answers — the request's
 * own code, verifier, refresh token or access token is the credential — never with credentials. The
 * grants the token endpoint hands to the provider answer with the provider's own rule instead: a public
 * client from the origin of one of its redirect URIs.
 */
const PROTOCOL_PATHS = new Set([
  '/.well-known/openid-configuration',
  '/.well-known/jwks',
  '/connect/token',
  '/connect/userinfo',
]);
const PROTOCOL_METHODS = 'GET, POST';
const PROTOCOL_HEADERS = 'Authorization, Content-Type';

function protocolCors(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
  reply.header('Access-Control-Allow-Origin', '*');
  if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) return done();
  reply
    .code(204)
    .header('Access-Control-Allow-Methods', PROTOCOL_METHODS)
    .header('Access-Control-Allow-Headers', PROTOCOL_HEADERS)
    .header('Access-Control-Max-Age', PREFLIGHT_MAX_AGE)
    .header('Content-Length', '0')
    .send();
}
