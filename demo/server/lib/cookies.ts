import type { FastifyRequest } from 'fastify';

/**
 * The request's cookies, parsed at the first call. `@fastify/cookie` runs with `hook: false`, so
 * `request.cookies` is null until then: read cookies only through this function.
 */
export function cookiesOf(request: FastifyRequest): Record<string, string | undefined> {
  // The plugin's type says `cookies` is always set; with `hook: false` it is null until parsed.
  // eslint-disable-next-line no-restricted-properties -- the one place that reads and sets it
  const parsed = request.cookies as FastifyRequest['cookies'] | null;
  if (parsed) return parsed;
  const header = request.headers.cookie;
  // eslint-disable-next-line no-restricted-properties -- the one place that reads and sets it
  return (request.cookies = header ? request.server.parseCookie(header) : {});
}
