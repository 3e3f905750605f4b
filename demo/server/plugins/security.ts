import type { FastifyError, FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { HashBusyError } from '../lib/password';
import { cookiesOf } from '../lib/cookies';
import { XSRF_COOKIE, XSRF_FIELD, XSRF_HEADER } from '../lib/xsrf';
import { sessionOf } from '../lib/session';

/** The strict CSP of design §4, on every page this server serves. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function bodyKindOf(contentType: string | undefined): 'json' | 'scim' | 'form' | 'other' {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return 'json';
  if (type === 'application/scim+json') return 'scim';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  return 'other';
}

const BODY_TYPES = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  scim: 'application/scim+json',
} as const;

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
}

/**
 * Security headers, the NUL rule, the anti-forgery rule, body-type rules and the error shape of every
 * answer. `closing` tells whether the server is shutting down (answers then close their connection).
 */
export function registerSecurity(app: FastifyInstance, config: Config, closing: () => boolean): void {
  const allowedOrigins = new Set(config.corsOrigins);
  const https = config.publicUrl.startsWith('https:');

  // One preValidation and one onSend hook for every rule below, written with callbacks: they run on
  // every request, and the common case (a GET without a body) reads nothing it does not need.
  app.addHook('preValidation', (request, reply, done) => {
    // PostgreSQL text cannot hold U+0000 (SQLite can), so a NUL in an address, query or body would be a
    // 500 on one database and stored on the other. No field of this API has a use for it: refuse it
    // first. Pages (and the not-found handler) read none of it: the portal page still opens, and its own
    // ReturnUrl rule refuses such a value like any other hostile one.
    if (
      (hasNul(request.params) || hasNul(request.query) || hasNul(request.body)) &&
      !request.is404 &&
      !request.routeOptions.config.page
    ) {
      reply.code(400).send({ message: 'text must not contain NUL characters' });
      return;
    }
    // Body type first (415), then anti-forgery (403), both before schema validation, so a forged request
    // learns nothing about the route's input rules.
    if (hasBody(request.headers)) {
      const kind = request.routeOptions.config.body;
      const sent = bodyKindOf(request.headers['content-type']);
      // SCIM clients send application/scim+json (RFC 7644 §3.1); some send plain JSON.
      const fits = kind === 'scim' ? sent === 'scim' || sent === 'json' : sent === kind;
      if (kind && kind !== 'none' && !fits) {
        reply.code(415).send({ message: `expected an ${BODY_TYPES[kind]} body` });
        return;
      }
    }
    // Requests without cookies cannot be forged by a browser on someone's behalf (design §4); a
    // provider's form_post answer is bound to the browser's flow instead (config.forgery).
    if (!UNSAFE.has(request.method) || !request.headers.cookie) return done();
    if (request.routeOptions.config.forgery) return done();
    const origin = request.headers.origin;
    if (origin && allowedOrigins.has(origin)) return done();
    const header = request.headers[XSRF_HEADER];
    const field =
      request.body && typeof request.body === 'object'
        ? (request.body as Record<string, unknown>)[XSRF_FIELD]
        : undefined;
    const presented = typeof header === 'string' ? header : typeof field === 'string' ? field : undefined;
    const { xsrf } = request.server.services;
    sessionOf(request).then((session) => {
      if (!xsrf.verify(presented, session, cookiesOf(request)[XSRF_COOKIE])) {
        reply.code(403).send({ message: 'anti-forgery token missing or invalid', code: 'antiForgery' });
        return;
      }
      done();
    }, done);
  });

  app.addHook('onSend', (_request, reply, payload, done) => {
    // While the server closes, each answer ends its keep-alive connection (see buildApp).
    if (closing()) reply.header('Connection', 'close');
    reply.header('X-Content-Type-Options', 'nosniff');
    if (!reply.hasHeader('Referrer-Policy'))
      reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (https) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      // A page may set a stricter policy of its own (the OpenID refusal page loads nothing at all).
      if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', PAGE_CSP);
      reply.header('Cross-Origin-Opener-Policy', 'same-origin');
      reply.header('Cache-Control', 'no-store');
    } else if (!reply.hasHeader('Cache-Control')) {
      // API answers carry user data and tokens: never cached.
      reply.header('Cache-Control', 'no-store');
    }
    done(null, payload);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HashBusyError) {
      return reply.code(503).header('Retry-After', '1').send({ message: 'server busy, try again shortly' });
    }
    if (error.validation) {
      const message =
        `${error.validationContext ?? 'request'}: ${error.message.replace(/^(body|querystring|params|headers)\/?/, '')}`.trim();
      // A route that names a code for a field (config.invalid) has its refusal say which field and why,
      // for a screen to show at that field.
      const field = fieldOf(error.validation[0]);
      const code = field ? request.routeOptions.config.invalid?.[field] : undefined;
      return reply.code(400).send(code ? { message, code, field } : { message });
    }
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ message: 'internal server error' });
    }
    return reply.code(status).send({ message: error.message });
  });
}

/** The top-level field a schema refusal is about: its path's first part, or the missing property. */
function fieldOf(
  issue: { instancePath?: string; params?: Record<string, unknown> } | undefined,
): string | null {
  if (!issue) return null;
  const first = issue.instancePath?.split('/')[1];
  if (first) return first;
  const missing = issue.params?.missingProperty;
  return typeof missing === 'string' ? missing : null;
}

/** Whether a parsed params, query or body value holds U+0000 in any string, key or nested value. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || hasNul(item, depth + 1)) return true;
  }
  return false;
}
