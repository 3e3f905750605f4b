import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { leaksInternals } from '../support/attack-inputs';
import { createTestApp, tokenFor, type TestApp } from '../support/test-server';

/**
 * Tokens everywhere (design §4 "aud and typ checked; userinfo accepts access tokens only"):
 * every bearer route × every kind of bad token → 401, and a good token gets past the check on each, so
 * the 401s are the token check's doing.
 */

let t: TestApp;
let carol: Awaited<ReturnType<typeof tokenFor>>;
let ada: Awaited<ReturnType<typeof tokenFor>>;
let carolIdToken: string;
before(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://issuer.test' });
  carol = await tokenFor(t.app, 'carol@globex.test');
  ada = await tokenFor(t.app, 'ada@acme.test');
  const exchange = await t.app.inject({
    method: 'POST',
    url: '/connect/token',
    headers: {
      cookie: carol.cookie,
      'x-xsrf-token': carol.xsrf,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({
      grant_type: 'device_code',
      client_id: 'acct-portal',
      sessionId: carol.publicId,
    }).toString(),
  });
  carolIdToken = exchange.json().id_token as string;
});
after(() => t.close());

interface BearerRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** A body that passes the route's schema, so only the token can refuse it. */
  json?: Record<string, string>;
}

const ROUTES: readonly BearerRoute[] = [
  { method: 'GET', url: '/connect/userinfo' },
  { method: 'GET', url: '/api/switcher' },
  { method: 'GET', url: '/api/user/permissions' },
  { method: 'GET', url: '/api/user/password' },
  {
    method: 'POST',
    url: '/api/user/password',
    json: {
      oldPassword: 'wrong-password',
      newPassword: 'a-new-pass-123',
      confirmNewPassword: 'a-new-pass-123',
    },
  },
  {
    method: 'PUT',
    url: '/api/user/password',
    json: { newPassword: 'a-new-pass-123', confirmNewPassword: 'a-new-pass-123' },
  },
  { method: 'POST', url: '/api/user', json: { name: 'Mallory Takeover' } },
  { method: 'DELETE', url: '/api/user/password/Google' },
  { method: 'DELETE', url: '/api/user/password/AzureAD' },
  { method: 'DELETE', url: '/api/user/password/Auth0' },
  { method: 'GET', url: '/policy/raw' },
  { method: 'GET', url: '/policy/raw?showinternal=true' },
  { method: 'POST', url: '/api/DeviceCode/generate' },
];

function call(route: BearerRoute, authorization: string | undefined): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: route.method,
    url: route.url,
    headers: {
      ...(authorization !== undefined ? { authorization } : {}),
      ...(route.json ? { 'content-type': 'application/json' } : {}),
    },
    ...(route.json ? { payload: JSON.stringify(route.json) } : {}),
  });
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Sign claims with the server's own key (what only the server can do), changing one thing at a time. */
async function serverSigned(claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  const key = t.app.services.keys.signingKey();
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'at+jwt', ...header })
    .sign(key.privateKey);
}

async function badTokens(): Promise<Array<[string, string]>> {
  const access = carol.accessToken;
  const [header, payload, signature] = access.split('.') as [string, string, string];
  const claims = decodeJwt(access);
  const now = Math.floor(Date.now() / 1000);
  const acme = await t.db.kysely
    .selectFrom('teams')
    .select('id')
    .where('name', '=', 'acme')
    .executeTakeFirstOrThrow();
  const { privateKey: foreignKey } = await generateKeyPair('EdDSA');
  const publicJwk = JSON.stringify(t.app.services.keys.signingKey().publicJwk);
  const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;

  return [
    ['alg none', `${b64({ alg: 'none', typ: 'at+jwt' })}.${payload}.`],
    ['alg none, upper case', `${b64({ alg: 'NONE', typ: 'at+jwt' })}.${payload}.`],
    ['alg none with the old signature', `${b64({ alg: 'none', typ: 'at+jwt' })}.${payload}.${signature}`],
    ['wrong signature (flipped bytes)', `${header}.${payload}.${flipped}`],
    ['no signature', `${header}.${payload}.`],
    ['tampered claims, old signature', `${header}.${b64({ ...claims, sub: ada.publicId })}.${signature}`],
    [
      'signed by a foreign key with our kid',
      await new SignJWT(claims)
        .setProtectedHeader({ alg: 'EdDSA', kid: t.app.services.keys.signingKey().kid, typ: 'at+jwt' })
        .sign(foreignKey),
    ],
    [
      'HS256 keyed with our public key (algorithm confusion)',
      await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .sign(new TextEncoder().encode(publicJwk)),
    ],
    ['wrong audience', await serverSigned({ ...claims, aud: 'someone-else' })],
    [
      'audience of the portal client (an id token audience)',
      await serverSigned({ ...claims, aud: 'acct-portal' }),
    ],
    ['no audience', await serverSigned({ ...claims, aud: undefined })],
    ['wrong issuer', await serverSigned({ ...claims, iss: 'https://evil.test' })],
    ['wrong typ (JWT)', await serverSigned(claims, { typ: 'JWT' })],
    ['no typ', await serverSigned(claims, { typ: undefined })],
    [
      'expired an hour ago',
      await serverSigned({ ...claims, iat: now - 7300, nbf: now - 7300, exp: now - 3700 }),
    ],
    ['not valid yet', await serverSigned({ ...claims, iat: now + 3600, nbf: now + 3600, exp: now + 7200 })],
    ['no expiry', await serverSigned({ ...claims, exp: undefined })],
    ['id token used as access token', carolIdToken],
    ["carol's id with another team (acme)", await serverSigned({ ...claims, team_id: acme.id })],
    ['unknown user', await serverSigned({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })],
    ['no team', await serverSigned({ ...claims, team_id: undefined })],
    ['no subject', await serverSigned({ ...claims, sub: undefined })],
    ['subject of the wrong type', await serverSigned({ ...claims, sub: 42 as unknown as string })],
    ['garbage', 'not.a.token'],
    ['two parts', `${header}.${payload}`],
    ['four parts', `${access}.x`],
    ['empty', ''],
    ['very long', `${header}.${'A'.repeat(8000)}.${signature}`],
  ];
}

function assert401(response: LightMyRequestResponse, label: string) {
  assert.equal(response.statusCode, 401, `${label}: ${response.body.slice(0, 200)}`);
  assert.match(String(response.headers['www-authenticate']), /^Bearer\b/, label);
  assert.equal(typeof response.json().message, 'string', label);
  assert.ok(!leaksInternals(response.body), label);
}

describe('bad tokens on every bearer route', () => {
  it('lets a good token past the check on every route (so the 401s below are the check)', async () => {
    for (const route of ROUTES) {
      const response = await call(route, `Bearer ${carol.accessToken}`);
      assert.notEqual(response.statusCode, 401, `${route.method} ${route.url}: ${response.body}`);
      assert.ok(response.statusCode < 500, `${route.method} ${route.url}`);
    }
    // Undo the good call's name change for the checks at the end.
    await t.db.kysely
      .updateTable('users')
      .set({ name: 'Carol Diaz' })
      .where('email', '=', 'carol@globex.test')
      .execute();
  });

  it('answers 401 to every bad token on every route', async () => {
    const tokens = await badTokens();
    let tried = 0;
    for (const route of ROUTES) {
      for (const [name, token] of tokens) {
        assert401(await call(route, `Bearer ${token}`), `${route.method} ${route.url}: ${name}`);
        tried++;
      }
      for (const [name, header] of [
        ['no Authorization header', undefined],
        ['Basic scheme', `Basic ${Buffer.from('carol@globex.test:portal-demo-pass').toString('base64')}`],
        ['token without a scheme', carol.accessToken],
        ['two tokens', `Bearer ${carol.accessToken} ${carol.accessToken}`],
        ['cookie instead of a token', undefined],
      ] as Array<[string, string | undefined]>) {
        const response =
          name === 'cookie instead of a token'
            ? await t.app.inject({
                method: route.method,
                url: route.url,
                headers: {
                  cookie: carol.cookie,
                  'x-xsrf-token': carol.xsrf,
                  ...(route.json ? { 'content-type': 'application/json' } : {}),
                },
                ...(route.json ? { payload: JSON.stringify(route.json) } : {}),
              })
            : await call(route, header);
        assert401(response, `${route.method} ${route.url}: ${name}`);
        tried++;
      }
    }
    console.log(`# attack-tokens: ${tried} route × token pairs`);
    assert.ok(tried >= ROUTES.length * 30, String(tried));
  });

  it('answers 401 to a once-good token after it expires, on every route', async () => {
    t.clock.advance(3601_000);
    try {
      for (const route of ROUTES)
        assert401(await call(route, `Bearer ${carol.accessToken}`), `${route.url} expired`);
    } finally {
      t.clock.advance(-3601_000);
    }
    assert.equal((await call(ROUTES[0]!, `Bearer ${carol.accessToken}`)).statusCode, 200);
  });

  it('changed nothing for any refused call', async () => {
    const user = await t.db.kysely
      .selectFrom('users')
      .select(['name', 'password_hash'])
      .where('email', '=', 'carol@globex.test')
      .executeTakeFirstOrThrow();
    assert.equal(user.name, 'Carol Diaz');
    assert.ok(user.password_hash);
    const links = await t.db.kysely.selectFrom('external_accounts').select('provider').execute();
    assert.ok(links.length > 0, 'seeded provider links are still there');
  });
});
