import type { FastifyError, FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { HashBusyError } from '../lib/password';
import { XSRF_FIELD, XSRF_HEADER } from '../lib/xsrf';
import { sessionOf } from './cookies';

/** The strict CSP of design §4, on every page this server serves. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function bodyKindOf(contentType: string | undefined): 'json' | 'form' | 'other' {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  return 'other';
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
}

/**
 * Security headers, the anti-forgery rule, body-type rules and the error shape of every answer.
 */
export function registerSecurity(app: FastifyInstance, config: Config): void {
  const allowedOrigins = new Set(config.corsOrigins);
  const https = config.publicUrl.startsWith('https:');

  // Body type first (415), then anti-forgery (403), both before schema validation, so a forged request
  // learns nothing about the route's input rules.
  app.addHook('preValidation', async (request, reply) => {
    const kind = request.routeOptions.config.body;
    if (
      kind &&
      kind !== 'none' &&
      hasBody(request.headers) &&
      bodyKindOf(request.headers['content-type']) !== kind
    ) {
      return reply.code(415).send({
        message: `expected an ${kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'} body`,
      });
    }
    if (!UNSAFE.has(request.method)) return;
    // Requests without cookies cannot be forged by a browser on someone's behalf (design §4).
    if (!request.headers.cookie) return;
    const origin = request.headers.origin;
    if (origin && allowedOrigins.has(origin)) return;
    const header = request.headers[XSRF_HEADER];
    const field =
      request.body && typeof request.body === 'object'
        ? (request.body as Record<string, unknown>)[XSRF_FIELD]
        : undefined;
    const presented = typeof header === 'string' ? header : typeof field === 'string' ? field : undefined;
    const { xsrf } = request.server.services;
    if (!xsrf.verify(presented, await sessionOf(request), request.cookies['XSRF-TOKEN'])) {
      return reply.code(403).send({ message: 'anti-forgery token missing or invalid' });
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    if (!reply.hasHeader('Referrer-Policy'))
      reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (https) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) {
      reply.header('Content-Security-Policy', PAGE_CSP);
      reply.header('Cross-Origin-Opener-Policy', 'same-origin');
      reply.header('Cache-Control', 'no-store');
    } else if (!reply.hasHeader('Cache-Control')) {
      // API answers carry user data and tokens: never cached.
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HashBusyError) {
      return reply.code(503).header('Retry-After', '1').send({ message: 'server busy, try again shortly' });
    }
    if (error.validation) {
      return reply.code(400).send({
        message:
          `${error.validationContext ?? 'request'}: ${error.message.replace(/^(body|querystring|params|headers)\/?/, '')}`.trim(),
      });
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
