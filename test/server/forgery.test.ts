import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import { ROUTE_PARAMS } from '../support/route-params';
import { createTestApp, sessionFor, type DirectSession, type TestApp } from '../support/test-server';

/**
 * Design §4's anti-forgery rule on every state-changing route the server has — collected from the
 * router as the app is built, so a route added later is covered without touching this file.
 */

type BodyKind = 'json' | 'form' | 'scim' | 'none' | undefined;
interface UnsafeRoute {
  method: string;
  url: string;
  body: BodyKind;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Routes deliberately outside the rule, with the reason. The rule only asks cookie-bearing requests, so
 * the mobile app's cookie-less device-code exchange at /connect/token needs no exemption (a
 * cookie-bearing request to it is checked like any other).
 */
const EXEMPT = new Map<string, string>([
  [
    'POST /account/callback/:provider',
    "Apple's form_post answer is a cross-site POST from the provider's page, which cannot carry the token; " +
      'it acts only on the flow bound to this browser (the acct_oauth cookie) and its state, both single use',
  ],
  [
    'POST /saml/:id/acs',
    "a SAML identity provider's answer is a cross-site POST from the provider's page, which cannot carry " +
      'the token; it acts only through the single-use request this site sent, named in the signed assertion',
  ],
  [
    'POST /oidc/*',
    "the OpenID Provider's own endpoints: a token request carries the client's credentials or code, and " +
      "the provider's forms (device code, sign-out confirmation) carry the provider's own anti-forgery token",
  ],
]);

let test: TestApp;
let app: FastifyInstance;
const routes: UnsafeRoute[] = [];

before(async () => {
  const onRoute = (route: RouteOptions) => {
    const methods = [route.method].flat();
    for (const method of methods) {
      if (!UNSAFE.has(method)) continue;
      const body = (route.config as { body?: BodyKind } | undefined)?.body;
      routes.push({ method, url: route.url, body });
    }
  };
  test = await createTestApp({}, onRoute);
  app = test.app;
});
after(() => test.close());

function concrete(route: UnsafeRoute): string {
  if (!route.url.includes(':') && !route.url.includes('*')) return route.url;
  const url = ROUTE_PARAMS[route.url];
  assert.ok(
    url,
    `${route.method} ${route.url}: add a concrete address to ROUTE_PARAMS (test/support/route-params.ts)`,
  );
  return url;
}

/** A well-formed request of the route's body type, so only the anti-forgery rule can answer 403. */
function send(route: UnsafeRoute, headers: Record<string, string>, field?: string) {
  const base = { method: route.method as 'POST', url: concrete(route) };
  if (route.body === 'json') {
    return app.inject({
      ...base,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(field ? { __RequestVerificationToken: field } : {}),
    });
  }
  if (route.body === 'form' || field) {
    return app.inject({
      ...base,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams({
        probe: '1',
        ...(field ? { __RequestVerificationToken: field } : {}),
      }).toString(),
    });
  }
  return app.inject({ ...base, headers });
}

const checked = () => routes.filter((route) => !EXEMPT.has(`${route.method} ${route.url}`));

describe('anti-forgery on every non-GET route (design §4)', () => {
  it('collects the routes from the router', () => {
    const names = routes.map((route) => `${route.method} ${route.url}`);
    for (const expected of [
      'POST /account/login',
      'POST /account/logout',
      'POST /account/check',
      'POST /connect/token',
      'POST /api/user',
      'POST /api/user/password',
      'PUT /api/user/password',
      'DELETE /api/user/password/:provider',
      'POST /api/user/password/request',
      'POST /api/user/password/reset',
      'POST /api/external/:provider',
      'POST /account/:provider',
      'POST /account/:provider/start',
      'POST /api/DeviceCode/generate',
      'POST /home/token',
    ]) {
      assert.ok(names.includes(expected), `${expected} collected (got ${names.join(', ')})`);
    }
    for (const name of EXEMPT.keys()) assert.ok(names.includes(name), `exempt route ${name} exists`);
  });

  it("refuses a cookie-bearing request with no token, a wrong token, another session's token or a foreign origin (403)", async () => {
    const carol = await sessionFor(app, 'carol@globex.test');
    const stranger = (await app.inject({ method: 'GET', url: '/login/acme' })).cookies.find(
      (c) => c.name === 'XSRF-TOKEN',
    )!.value;
    for (const route of checked()) {
      // A fresh session per route: the positive check below may sign it out.
      const ada: DirectSession = await sessionFor(app, 'ada@acme.test');
      const cases: Array<[string, Record<string, string>, string?]> = [
        ['no token', { cookie: ada.cookie }],
        ['wrong token', { cookie: ada.cookie, 'x-xsrf-token': 's.wrong' }],
        ['wrong token in the form field', { cookie: ada.cookie }, 's.wrong'],
        ["another session's token", { cookie: ada.cookie, 'x-xsrf-token': carol.xsrf }],
        ["another session's token in the form field", { cookie: ada.cookie }, carol.xsrf],
        ['foreign origin', { cookie: ada.cookie, origin: 'https://evil.test' }],
        ['foreign origin, no session', { cookie: `XSRF-TOKEN=${stranger}`, origin: 'https://evil.test' }],
        [
          "another browser's anonymous token",
          {
            cookie: 'XSRF-TOKEN=a.aaaaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
            'x-xsrf-token': stranger,
          },
        ],
      ];
      for (const [name, headers, field] of cases) {
        if (field && (route.body === 'json' || route.body === 'scim')) continue; // JSON routes take the header only
        const response = await send(route, headers, field);
        assert.equal(
          response.statusCode,
          403,
          `${route.method} ${route.url}: ${name} → ${response.statusCode}`,
        );
        // SCIM routes answer in SCIM's error shape (routes/scim.ts), with the same words.
        const body = response.json() as { message?: string; detail?: string; schemas?: string[] };
        if (route.url.startsWith('/scim/'))
          assert.deepEqual(body, {
            schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
            status: '403',
            detail: 'anti-forgery token missing or invalid',
          });
        else
          assert.deepEqual(body, { message: 'anti-forgery token missing or invalid', code: 'antiForgery' });
      }
      // With the session's own token the rule lets it through (whatever the route then answers).
      const allowed = await send(route, { cookie: ada.cookie, 'x-xsrf-token': ada.xsrf });
      assert.notEqual(allowed.statusCode, 403, `${route.method} ${route.url} with the right token`);
    }
  });

  it('refuses a text/plain body with 415 on every route that takes a body, before anything else', async () => {
    for (const route of checked()) {
      if (route.body === 'none') continue;
      const variants: Array<Record<string, string>> = [{}, { cookie: 'acct_session=x' }];
      for (const headers of variants) {
        const response: LightMyRequestResponse = await app.inject({
          method: route.method as 'POST',
          url: concrete(route),
          headers: { 'content-type': 'text/plain', ...headers },
          payload: route.body === 'form' ? 'grant_type=x' : '{"name":"x"}',
        });
        assert.equal(response.statusCode, 415, `${route.method} ${route.url} ${JSON.stringify(headers)}`);
      }
    }
  });

  it('refuses the other body type with 415 (JSON routes take JSON, form routes forms)', async () => {
    for (const route of checked()) {
      if (route.body !== 'json' && route.body !== 'form') continue;
      const wrong =
        route.body === 'json'
          ? { type: 'application/x-www-form-urlencoded', payload: 'name=x' }
          : { type: 'application/json', payload: '{"grant_type":"x"}' };
      const response = await app.inject({
        method: route.method as 'POST',
        url: concrete(route),
        headers: { 'content-type': wrong.type },
        payload: wrong.payload,
      });
      assert.equal(response.statusCode, 415, `${route.method} ${route.url}`);
    }
  });
});
