import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { ROUTE_BODIES as BODIES, ROUTE_PARAMS } from '../support/route-params';
import { createTestApp, tokenFor, type TestApp } from '../support/test-server';

/**
 * The auth hook (plugins/auth.ts) fails closed: every route the router has declares who may call it,
 * and every bearer route refuses a missing or bad token with the same 401 — collected from the router
 * as the app is built, so a route added later is covered without touching this file.
 */

const RULES = new Set(['bearer', 'session', 'client', 'directory', 'none']);

let t: TestApp;
let app: FastifyInstance;
const routes: RouteOptions[] = [];

before(async () => {
  // The options objects themselves: a plugin's own onRoute hook may still declare `auth` after ours ran.
  t = await createTestApp({}, (route) => void routes.push(route));
  app = t.app;
});
after(() => t.close());

const name = (route: RouteOptions, method: string) => `${method} ${route.url}`;
const methodsOf = (route: RouteOptions) => [route.method].flat();

function bearerRoutes(auth = 'bearer'): Array<{ method: string; url: string; key: string }> {
  return routes
    .filter((route) => route.config?.auth === auth)
    .flatMap((route) =>
      methodsOf(route).map((method) => ({ method, url: route.url, key: name(route, method) })),
    );
}

function call(route: { method: string; url: string; key: string }, authorization?: string) {
  const url = ROUTE_PARAMS[route.url] ?? (route.url.includes(':') ? undefined : route.url);
  assert.ok(url, `${route.key}: add a concrete address to ROUTE_PARAMS (test/support/route-params.ts)`);
  const needsBody = route.method !== 'GET' && route.method !== 'HEAD';
  if (needsBody)
    assert.ok(route.key in BODIES || route.method === 'DELETE', `${route.key}: add a body to BODIES`);
  const body = BODIES[route.key];
  return app.inject({
    method: route.method as 'GET',
    url,
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    payload: body ? JSON.stringify(body) : undefined,
  });
}

describe('every route declares who may call it', () => {
  it('has a config.auth of bearer, session, client or none on every route', () => {
    assert.ok(routes.length > 20, `routes collected (${routes.length})`);
    const undeclared = routes
      .filter((route) => !RULES.has(String(route.config?.auth)))
      .map((route) => `${methodsOf(route).join(',')} ${route.url}`);
    assert.deepEqual(undeclared, []);
  });

  it('declares the calls that need a token or a session as such', () => {
    const declared = (auth: string) =>
      routes
        .filter((route) => route.config?.auth === auth)
        .flatMap((route) => methodsOf(route).map((method) => name(route, method)));
    const bearer = declared('bearer');
    for (const expected of [
      'GET /connect/userinfo',
      'GET /api/switcher',
      'GET /api/user/permissions',
      'GET /api/user/password',
      'POST /api/user/password',
      'PUT /api/user/password',
      'POST /api/user',
      'DELETE /api/user/password/:provider',
      'POST /api/DeviceCode/generate',
      'GET /policy/raw',
      'GET /api/team',
      'PUT /api/team/seat-limit',
      'PATCH /api/team/login-options',
      'GET /api/team/invitations',
      'POST /api/team/invitations',
      'POST /api/team/invitations/:id/resend',
      'DELETE /api/team/invitations/:id',
      'GET /api/team/members',
      'PATCH /api/team/members/:id',
      'DELETE /api/team/members/:id',
      'GET /api/team/groups',
      'POST /api/team/groups',
      'PATCH /api/team/groups/:id',
      'DELETE /api/team/groups/:id',
      'PUT /api/team/groups/:id/members/:userId',
      'DELETE /api/team/groups/:id/members/:userId',
      'GET /api/team/apps',
      'POST /api/team/apps',
      'PATCH /api/team/apps/:clientId',
      'POST /api/team/apps/:clientId/secret',
      'DELETE /api/team/apps/:clientId',
      'GET /api/team/directories',
      'POST /api/team/directories',
      'POST /api/team/directories/:id/token',
      'DELETE /api/team/directories/:id',
      'GET /api/team/streams',
      'POST /api/team/streams',
      'POST /api/team/streams/:id/secret',
      'POST /api/team/streams/:id/pause',
      'POST /api/team/streams/:id/resume',
      'POST /api/team/streams/:id/test',
      'DELETE /api/team/streams/:id',
      'GET /api/team/domains',
      'POST /api/team/domains',
      'POST /api/team/domains/:domain/verify',
      'PATCH /api/team/domains/:domain',
      'DELETE /api/team/domains/:domain',
      'GET /api/team/connections',
      'POST /api/team/connections',
      'PATCH /api/team/connections/:id',
      'POST /api/team/connections/:id/test',
      'DELETE /api/team/connections/:id',
      'GET /api/team/audit',
      'GET /api/team/setup-links',
      'POST /api/team/setup-links',
      'DELETE /api/team/setup-links/:id',
      'GET /api/search',
    ]) {
      assert.ok(bearer.includes(expected), `${expected} is a bearer route (got ${bearer.join(', ')})`);
    }
    assert.deepEqual(declared('session').sort(), ['POST /api/external/:provider', 'POST /home/token']);
    assert.deepEqual(declared('client').sort(), ['PUT /api/team/storage']);
    // A directory's token opens the SCIM routes and nothing else (test/server/scim.test.ts).
    const directory = declared('directory');
    assert.ok(directory.length >= 15, directory.join(', '));
    assert.ok(
      directory.every((route) => / \/scim\/v2\//.test(route)),
      directory.join(', '),
    );
    const scim = routes.filter((route) => route.url.startsWith('/scim/'));
    assert.ok(
      scim.every((route) => route.config?.auth === 'directory'),
      'every SCIM route takes a directory token',
    );
  });

  it('refuses to start when a route asks for a role without a bearer token', async () => {
    const { registerAuth } = await import('../../demo/server/plugins/auth');
    const bare = Fastify({ logger: false });
    registerAuth(bare);
    bare.get('/admin', { config: { auth: 'session', role: 'admin' } }, async () => ({}));
    await assert.rejects(async () => bare.ready(), /config\.role needs auth 'bearer'.*GET \/admin/);
    await bare.close().catch(() => undefined);
  });

  it('refuses to start when a route takes setup tokens without being an admin route', async () => {
    const { registerAuth } = await import('../../demo/server/plugins/auth');
    const bare = Fastify({ logger: false });
    registerAuth(bare);
    bare.get('/setup-only', { config: { auth: 'bearer', setup: true } }, async () => ({}));
    await assert.rejects(async () => bare.ready(), /config\.setup needs .*GET \/setup-only/);
    await bare.close().catch(() => undefined);
  });

  it('refuses to start when a route declares nothing', async () => {
    const { registerAuth } = await import('../../demo/server/plugins/auth');
    const bare = Fastify({ logger: false });
    registerAuth(bare);
    bare.get('/declared', { config: { auth: 'none' } }, async () => ({}));
    bare.get('/forgotten', async () => ({}));
    await assert.rejects(async () => bare.ready(), /routes without config\.auth.*GET \/forgotten/);
    await bare.close().catch(() => undefined);
  });
});

describe('every bearer route refuses a missing or bad token (401)', () => {
  /** Bearer routes, and (unless the token is a member's) the API client routes. */
  const expect401 = async (authorization: string | undefined, label: string, clientRoutes = true) => {
    const checked = [...bearerRoutes(), ...(clientRoutes ? bearerRoutes('client') : [])];
    assert.ok(checked.length >= 10, `bearer routes collected (${checked.length})`);
    for (const route of checked) {
      const response = await call(route, authorization);
      assert.equal(
        response.statusCode,
        401,
        `${route.key} ${label}: ${response.statusCode} ${response.body}`,
      );
      assert.equal(response.headers['www-authenticate'], 'Bearer error="invalid_token"', route.key);
      if (route.method !== 'HEAD')
        assert.deepEqual(response.json(), { message: 'a valid access token is required' }, route.key);
    }
  };

  it('with no Authorization header', () => expect401(undefined, 'no token'));
  it('with a token that is not a JWT', () => expect401('Bearer not-a-token', 'garbage'));
  it('with another scheme', () => expect401('Basic YWRhOnB3', 'basic'));

  it('with the access token of a session that has ended', async () => {
    const ada = await tokenFor(app, 'ada@acme.test');
    await app.services.sessions.revokeAllForUser(
      (
        await t.db.kysely
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'ada@acme.test')
          .executeTakeFirstOrThrow()
      ).id,
    );
    // A member's token on an API client route is refused for its scope (403): tested with that route.
    await expect401(`Bearer ${ada.accessToken}`, 'ended session', false);
  });

  it('lets a live token through to the handler (whatever it then answers)', async () => {
    const carol = await tokenFor(app, 'carol@globex.test');
    for (const route of bearerRoutes()) {
      const response = await call(route, `Bearer ${carol.accessToken}`);
      assert.notEqual(response.statusCode, 401, `${route.key}: ${response.body}`);
      assert.ok(response.statusCode < 500, `${route.key}: ${response.statusCode} ${response.body}`);
    }
  });
});

describe('the order of answers is kept', () => {
  it('answers an unknown provider 404 before asking for a token or a session', async () => {
    const unlink = await app.inject({ method: 'DELETE', url: '/api/user/password/Facebook' });
    assert.equal(unlink.statusCode, 404, unlink.body);
    const link = await app.inject({
      method: 'POST',
      url: '/api/external/Facebook',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    assert.equal(link.statusCode, 404, link.body);
  });

  it('answers a bad body 400 before asking for a token', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ nickname: 'x' }),
    });
    assert.equal(response.statusCode, 400, response.body);
  });

  it('sends a session route without a session to sign in, or answers 401 where it says so', async () => {
    const post = (url: string, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: url === '/home/token' ? 'scope=openid' : '',
      });
    const link = await post('/api/external/Google');
    assert.equal(link.statusCode, 303);
    assert.equal(link.headers.location, '/login/team?ReturnUrl=%2Fmanage');
    const page = await post('/home/token', { accept: 'text/html' });
    assert.equal(page.statusCode, 303);
    assert.equal(page.headers.location, '/login/team?ReturnUrl=%2Fmanage%2Fdev');
    const api = await post('/home/token');
    assert.equal(api.statusCode, 401);
    assert.deepEqual(api.json(), { message: 'sign in first' });
  });
});
