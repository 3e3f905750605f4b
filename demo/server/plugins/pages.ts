import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  faviconSchema,
  portalPageSchema,
  staticFileSchema,
  unbuiltSchema,
} from '../../../src/contract/schemas/pages';
import { issueXsrfCookie } from '../lib/session';

/** Paths of the portal's own routes: the portal page is served at each so any address opens directly. */
export const PORTAL_PREFIXES = [
  '/login',
  '/manage',
  '/search',
  '/home/token',
  '/consent',
  '/setup',
  '/signup',
];
/**
 * The pages that show freshly issued tokens, or hold one in their address (a setup link), served with
 * `Referrer-Policy: no-referrer` (a sign-up's mailed link holds its token too).
 */
export const TOKEN_PAGES = ['/manage/dev/success', '/home/token', '/setup', '/signup'];
/** Prefixes that are never the portal page (unknown addresses there are JSON 404s). */
const API_PREFIXES = ['/api/', '/account/', '/connect/', '/.well-known/', '/dist/', '/demo/', '/healthz'];

/** A chunk's name holds its content's hash (rollup's `chunks/[name]-[hash].js`): a new build, a new name. */
const HASHED_CHUNK = /^chunks\/[^/]+-[\w-]{8}\.js$/;
/** Cached for a year and never revalidated: the address changes whenever the content does. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Kept, but asked again each time (a 304 while the ETag holds): the address stays across builds. */
const REVALIDATE = 'no-cache';

/**
 * The `Cache-Control` of a file under `/dist/` (`file` relative to it, a pre-compressed variant by the
 * name of the file it encodes): immutable for content-hashed chunks, revalidated for the rest — the
 * entries, custom-elements.json and source maps keep their address from one build to the next.
 */
function distCacheControl(file: string): string {
  const name = file
    .split(sep)
    .join('/')
    .replace(/\.(br|gz)$/, '');
  return HASHED_CHUNK.test(name) ? IMMUTABLE : REVALIDATE;
}

/** Script-safe JSON for a `<script type="application/json">` block. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** Render an HTML template: `<!--acct-env-->` becomes the runtime settings block, `%ISSUER%` the issuer. */
export function renderPage(template: string, env: Record<string, unknown>, issuer: string): string {
  return template
    .replace(
      '<!--acct-env-->',
      `<script type="application/json" id="acct-env">${jsonForScript(env)}</script>`,
    )
    .replaceAll('%ISSUER%', issuer);
}

/**
 * @fastify/static, its file routes declared public (`auth: 'none'`) with the answers of a file route
 * (`staticFileSchema`): it takes neither route config nor a response schema, so this plugin's own
 * onRoute hook adds both to each route the static plugin adds inside it.
 */
function publicFiles(options: FastifyStaticOptions) {
  // The options go to the inner plugin only: given to this one, Fastify would apply their `prefix` too.
  return async (app: FastifyInstance): Promise<void> => {
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, auth: 'none' };
      route.schema = { ...route.schema, ...staticFileSchema };
    });
    await app.register(fastifyStatic, options);
  };
}

/**
 * The bundle (`/dist/…`, the pre-compressed `.br` or `.gz` copy when the request accepts it; see
 * `distCacheControl` for its caching), the demo's assets (`/demo/…`, never the server's own files), and
 * the portal page at every portal route, with the XSRF-TOKEN cookie set on each page.
 */
export const pageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.services;
  const env = {
    brand: config.brand,
    // The operator's own sign-up address wins; else the portal's, when it is open.
    ...(config.signUpUrl
      ? { signUpUrl: config.signUpUrl }
      : config.signUpOpen
        ? { signUpUrl: '/signup' }
        : {}),
  };
  const portalTemplate = readFileSync(join(config.demoDir, 'index.html'), 'utf8');
  const portalPage = renderPage(portalTemplate, env, config.publicUrl);

  if (existsSync(config.distDir)) {
    await app.register(
      publicFiles({
        root: config.distDir,
        prefix: '/dist/',
        decorateReply: false,
        index: false,
        // The build writes `.br` and `.gz` beside each file; this sends one by `Accept-Encoding`, with
        // `Vary: Accept-Encoding` and the type of the file it encodes.
        preCompressed: true,
        cacheControl: false,
        setHeaders: (reply, path) => {
          reply.header('Cache-Control', distCacheControl(relative(config.distDir, path)));
        },
      }),
    );
  } else {
    app.log.warn(`${config.distDir} is missing: run "npm run build" (npm start does it for you)`);
    app.get('/dist/*', { config: { auth: 'none' }, schema: unbuiltSchema }, async (_request, reply) =>
      reply.code(503).send({ message: 'the bundle is not built: run npm run build' }),
    );
  }
  await app.register(
    publicFiles({
      root: config.demoDir,
      prefix: '/demo/',
      decorateReply: false,
      index: false,
      allowedPath: (path) => !path.replace(/\\/g, '/').split('/').includes('server') && !path.endsWith('.ts'),
    }),
  );

  const sendPortal = async (request: FastifyRequest, reply: FastifyReply) => {
    await issueXsrfCookie(request, reply);
    return reply.type('text/html; charset=utf-8').send(portalPage);
  };

  const favicon = readFileSync(join(config.demoDir, 'assets', 'favicon.svg'));
  app.get('/favicon.ico', { config: { auth: 'none' }, schema: faviconSchema }, async (_request, reply) =>
    reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').send(favicon),
  );

  // The token success page holds the tokens in its address (fragment): design §3 serves it with
  // `Referrer-Policy: no-referrer`, so no link or resource it loads can leak that address.
  const sendTokenPage = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Referrer-Policy', 'no-referrer');
    return sendPortal(request, reply);
  };

  const page = { config: { page: true, auth: 'none' as const }, schema: portalPageSchema };
  app.get('/', page, sendPortal);
  for (const prefix of PORTAL_PREFIXES) {
    const send = TOKEN_PAGES.includes(prefix) ? sendTokenPage : sendPortal;
    app.get(prefix, page, send);
    app.get(`${prefix}/*`, page, send);
  }
  for (const path of TOKEN_PAGES) if (!PORTAL_PREFIXES.includes(path)) app.get(path, page, sendTokenPage);

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage =
      request.method === 'GET' &&
      (request.headers.accept ?? '').includes('text/html') &&
      !API_PREFIXES.some((prefix) => path.startsWith(prefix));
    // The portal's route table sends unknown addresses to /manage; serve the page and let it redirect.
    if (wantsPage) return sendPortal(request, reply);
    return reply.code(404).send({ message: 'not found' });
  });
};
