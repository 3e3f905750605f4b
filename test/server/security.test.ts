import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PAGE_CSP } from '../../demo/server/plugins/security';
import { createTestApp, sessionFor, type DirectSession, type TestApp } from '../support/test-server';

let t: TestApp;
let ada: DirectSession;
let carol: DirectSession;
before(async () => {
  t = await createTestApp();
  ada = await sessionFor(t.app, 'ada@acme.test');
  carol = await sessionFor(t.app, 'carol@globex.test');
});
after(() => t.close());

const ALLOWED = 'https://suite.example.test';

/** Every non-GET route with a well-formed body, so only the anti-forgery rule can refuse it. */
interface UnsafeRoute {
  method: 'POST';
  url: string;
  form?: Record<string, string>;
}

function unsafeRoutes(session: DirectSession): UnsafeRoute[] {
  return [
    { method: 'POST', url: '/account/check' },
    { method: 'POST', url: '/account/logout', form: {} },
    {
      method: 'POST' as const,
      url: '/connect/token',
      form: { grant_type: 'device_code', client_id: 'acct-portal', sessionId: session.publicId },
    },
  ];
}

function send(route: UnsafeRoute, headers: Record<string, string>, field?: string) {
  const form = route.form
    ? { ...route.form, ...(field ? { __RequestVerificationToken: field } : {}) }
    : undefined;
  return t.app.inject({
    method: route.method,
    url: route.url,
    headers: { ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...headers },
    payload: form ? new URLSearchParams(form).toString() : undefined,
  });
}

describe('anti-forgery (design §4)', () => {
  it("refuses cookie-bearing requests with no token, a wrong token, or another session's token", async () => {
    for (const route of unsafeRoutes(ada)) {
      const cases: Array<[string, Record<string, string>]> = [
        ['no token', { cookie: ada.cookie }],
        ['wrong token', { cookie: ada.cookie, 'x-xsrf-token': 's.wrong' }],
        ["another session's token", { cookie: ada.cookie, 'x-xsrf-token': carol.xsrf }],
        ['foreign origin', { cookie: ada.cookie, origin: 'https://evil.test' }],
        ['foreign origin, no session', { cookie: 'XSRF-TOKEN=a.x.y', origin: 'https://evil.test' }],
      ];
      for (const [name, headers] of cases) {
        const response = await send(route, headers);
        assert.equal(response.statusCode, 403, `${route.url}: ${name}`);
        assert.deepEqual(response.json(), {
          message: 'anti-forgery token missing or invalid',
          code: 'antiForgery',
        });
      }
    }
  });

  it("accepts the session's own token in the header or the form field", async () => {
    const header = await send(unsafeRoutes(ada)[0]!, { cookie: ada.cookie, 'x-xsrf-token': ada.xsrf });
    assert.equal(header.statusCode, 200);
    const field = await send(unsafeRoutes(ada)[2]!, { cookie: ada.cookie }, ada.xsrf);
    assert.equal(field.statusCode, 200, field.body);
  });

  it('accepts an allowlisted origin without a token (elements embedded on suite pages)', async () => {
    const response = await send(unsafeRoutes(ada)[0]!, { cookie: ada.cookie, origin: ALLOWED });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { authenticated: true, session: ada.publicId });
  });

  it('does not ask cookie-less requests for a token', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/account/check' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { authenticated: false });
  });

  it("binds anonymous tokens to the caller's own cookie", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/login/acme' });
    const cookie = page.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
    assert.match(cookie.value, /^a\./);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/account/check',
      headers: { cookie: `XSRF-TOKEN=${cookie.value}`, 'x-xsrf-token': cookie.value },
    });
    assert.equal(ok.statusCode, 200);
    const other = await t.app.inject({ method: 'GET', url: '/login/acme' });
    const stolen = other.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    const refused = await t.app.inject({
      method: 'POST',
      url: '/account/check',
      headers: { cookie: `XSRF-TOKEN=${cookie.value}`, 'x-xsrf-token': stolen },
    });
    assert.equal(refused.statusCode, 403);
  });

  it('refuses a body of the wrong type with 415', async () => {
    const plain = await t.app.inject({
      method: 'POST',
      url: '/connect/token',
      headers: { 'content-type': 'text/plain' },
      payload: 'grant_type=device_code',
    });
    assert.equal(plain.statusCode, 415);
    const json = await t.app.inject({
      method: 'POST',
      url: '/connect/token',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ grant_type: 'device_code' }),
    });
    assert.equal(json.statusCode, 415);
    assert.match(json.json().message, /x-www-form-urlencoded/);
  });
});

describe('CORS', () => {
  it('allows the configured origins with credentials', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/account/check',
      headers: {
        origin: ALLOWED,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-xsrf-token,authorization',
      },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], ALLOWED);
    assert.equal(preflight.headers['access-control-allow-credentials'], 'true');
    assert.match(String(preflight.headers['access-control-allow-headers']), /X-XSRF-TOKEN/);
  });

  it('lets any origin make the OpenID Connect calls, without credentials', async () => {
    const spa = 'https://spa.team.example';
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/connect/token',
      headers: {
        origin: spa,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.equal(preflight.headers['access-control-allow-credentials'], undefined);
    for (const url of ['/.well-known/openid-configuration', '/.well-known/jwks', '/connect/userinfo']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { origin: spa } });
      assert.equal(response.headers['access-control-allow-origin'], '*', url);
      assert.equal(response.headers['access-control-allow-credentials'], undefined, url);
    }
    // The portal's own calls stay closed to it.
    const preflightApi = await t.app.inject({
      method: 'OPTIONS',
      url: '/account/check',
      headers: { origin: spa, 'access-control-request-method': 'POST' },
    });
    assert.equal(preflightApi.headers['access-control-allow-origin'], undefined);
  });

  it('gives other origins nothing', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/team/public/acme',
      headers: { origin: 'https://evil.test' },
    });
    assert.equal(response.headers['access-control-allow-origin'], undefined);
    assert.equal(response.headers['access-control-allow-credentials'], undefined);
  });
});

describe('headers', () => {
  it('puts the strict CSP and friends on pages', async () => {
    for (const url of [
      '/',
      '/login/acme',
      '/manage/dev',
      '/manage/dev/success',
      '/search?q=x',
      '/home/token',
      '/home/token/x',
    ]) {
      const page = await t.app.inject({ method: 'GET', url });
      assert.equal(page.statusCode, 200, url);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.equal(page.headers['content-security-policy'], PAGE_CSP);
      assert.equal(page.headers['x-content-type-options'], 'nosniff');
      // The token pages carry tokens in their address (design §3): they leak no referrer at all.
      const tokenPage = url.startsWith('/manage/dev/success') || url.startsWith('/home/token');
      assert.equal(
        page.headers['referrer-policy'],
        tokenPage ? 'no-referrer' : 'strict-origin-when-cross-origin',
        url,
      );
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.ok(
        page.cookies.some((c) => c.name === 'XSRF-TOKEN'),
        `${url} sets XSRF-TOKEN`,
      );
    }
    assert.equal(
      PAGE_CSP,
      "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
  });

  it('marks API answers no-store and nosniff', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/team/public/acme' });
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
  });

  it('sets cookies Secure and SameSite=None on localhost, XSRF readable by script, session HttpOnly', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const xsrf = page.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
    assert.equal(xsrf.secure, true);
    assert.equal(xsrf.sameSite, 'None');
    assert.equal(xsrf.httpOnly, undefined);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/account/logout',
      headers: { cookie: ada.cookie, 'x-xsrf-token': ada.xsrf },
    });
    const cleared = logout.cookies.find((c) => c.name === 'acct_session')!;
    assert.equal(cleared.httpOnly, true);
    assert.equal(cleared.value, '');
  });
});

describe('errors', () => {
  it('answers a team name of any length the same as an unknown team (404), never 414', async () => {
    for (const name of ['a'.repeat(101), 'a'.repeat(500), encodeURIComponent('チーム'.repeat(100))]) {
      const response = await t.app.inject({ method: 'GET', url: `/api/team/public/${name}` });
      assert.equal(response.statusCode, 404, `${name.length} characters`);
      assert.deepEqual(response.json(), { message: 'team not found' });
    }
  });

  it('answers unknown API addresses with a JSON 404, never the portal page', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/nope',
      headers: { accept: 'text/html' },
    });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { message: 'not found' });
  });

  it('serves the portal page for any other address a browser opens (the portal redirects)', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/whatever/else',
      headers: { accept: 'text/html' },
    });
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /<acct-portal>/);
  });

  it("never serves the server's own files under /demo/", async () => {
    for (const url of [
      '/demo/server/main.ts',
      '/demo/server/config.ts',
      '/demo/server/',
      '/demo/%2e%2e/package.json',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      assert.ok([403, 404].includes(response.statusCode), `${url} → ${response.statusCode}`);
    }
    const css = await t.app.inject({ method: 'GET', url: '/demo/assets/portal.css' });
    assert.equal(css.statusCode, 200);
  });

  it('answers bad input with a 4xx and a message, never a stack trace', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/connect/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=device_code&unexpected=1',
    });
    assert.equal(response.statusCode, 400);
    assert.match(response.json().message, /additional properties/);
    assert.doesNotMatch(response.body, /at .*\.ts:\d+/);
  });

  it("says the demo brand in the page's settings block", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const block = /<script type="application\/json" id="acct-env">(\{.*?\})<\/script>/.exec(page.body);
    assert.equal((JSON.parse(block![1]!) as { brand?: string }).brand, 'intoware', page.body);
  });
});
