import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import { renderPage } from './plugins/pages';
import { serverApp } from './server-app';

/**
 * The demo's second origin: a partner site embedding `<acct-login>` and a suite app using
 * `<acct-header>` and signing in through the OpenID Provider (code flow with PKCE, oidc-client-ts). Both load the bundle from the issuer and call it across origins (CORS with
 * credentials), under their own strict CSP that names the issuer.
 */
export async function buildPartnerApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const issuer = new URL(config.publicUrl).origin;
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${issuer}`,
    `connect-src 'self' ${issuer}`,
    "style-src 'self'",
    "img-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `form-action 'self' ${issuer}`,
  ].join('; ');

  const pages: Record<string, string> = {};
  for (const name of ['partner.html', 'suite-app.html']) {
    pages[name] = renderPage(
      readFileSync(join(config.demoDir, name), 'utf8'),
      { brand: config.brand },
      config.publicUrl,
    );
  }

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('Content-Security-Policy', csp);
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });

  app.get('/', async (_request, reply) => reply.redirect('/partner.html'));
  const favicon = readFileSync(join(config.demoDir, 'assets', 'favicon.svg'));
  app.get('/favicon.ico', async (_request, reply) => reply.type('image/svg+xml').send(favicon));
  for (const [name, html] of Object.entries(pages)) {
    app.get(`/${name}`, async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  }
  // The suite app's OpenID Connect client library, served from this origin (its CSP allows no other
  // script host but the issuer): oidc-client-ts's browser build, as installed.
  const oidcClient = readFileSync(
    join(
      dirname(createRequire(import.meta.url).resolve('oidc-client-ts/package.json')),
      'dist/browser/oidc-client-ts.min.js',
    ),
  );
  app.get('/assets/vendor/oidc-client-ts.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(oidcClient),
  );
  await serverApp(app, config, `http://localhost:${config.partnerPort}`);
  await app.register(fastifyStatic, {
    root: join(config.demoDir, 'assets'),
    prefix: '/assets/',
    index: false,
  });
  return app;
}
