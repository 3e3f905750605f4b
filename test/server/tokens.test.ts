import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  jwtVerify,
  SignJWT,
  generateKeyPair,
} from 'jose';
import {
  createTestApp,
  exchangeSession,
  sessionFor,
  type DirectSession,
  type TestApp,
} from '../support/test-server';

let t: TestApp;
let ada: DirectSession;
before(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://issuer.test' });
  ada = await sessionFor(t.app, 'ada@acme.test');
});
after(() => t.close());

function exchange(session: DirectSession, fields: Record<string, string> = {}) {
  return exchangeSession(t.app, session, session.publicId, fields);
}

function userinfo(token: string) {
  return t.app.inject({
    method: 'GET',
    url: '/connect/userinfo',
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('discovery and keys', () => {
  it('publishes the endpoints', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' });
    assert.equal(response.statusCode, 200);
    const doc = response.json();
    assert.equal(doc.issuer, 'http://issuer.test');
    assert.equal(doc.userinfo_endpoint, 'http://issuer.test/connect/userinfo');
    assert.equal(doc.token_endpoint, 'http://issuer.test/connect/token');
    assert.equal(doc.jwks_uri, 'http://issuer.test/.well-known/jwks');
    // RFC 8628: the device calls it with its client id (the QR code login keeps /api/DeviceCode/generate).
    assert.equal(doc.device_authorization_endpoint, 'http://issuer.test/oidc/device/auth');
    assert.ok(doc.grant_types_supported.includes('urn:ietf:params:oauth:grant-type:device_code'));
    assert.ok(doc.scopes_supported.includes('Job_Read'));
    assert.ok(!doc.scopes_supported.includes('Internal_Sync'));
  });

  it('publishes only the public key', async () => {
    const { keys } = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks' })).json();
    assert.equal(keys.length, 1);
    assert.equal(keys[0].kty, 'OKP');
    assert.equal(keys[0].crv, 'Ed25519');
    assert.equal(keys[0].d, undefined);
    assert.ok(keys[0].kid);
  });
});

describe('session exchange at /connect/token', () => {
  it('gives the caller tokens for their own session', async () => {
    const response = await exchange(ada);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(decodeProtectedHeader(body.access_token).typ, 'at+jwt');
    const jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/.well-known/jwks' })).json());
    const { payload } = await jwtVerify(body.access_token, jwks, {
      issuer: 'http://issuer.test',
      audience: 'acct-api',
    });
    assert.equal(payload.exp! - payload.iat!, 3600);
    const id = decodeJwt(body.id_token);
    assert.equal(id.aud, 'acct-portal');
    assert.equal(id.email, 'ada@acme.test');
    assert.equal(response.headers['cache-control'], 'no-store');
  });

  it("refuses another session's id, an unknown client and other grants", async () => {
    const carol = await sessionFor(t.app, 'carol@globex.test');
    const stolen = await exchange(ada, { sessionId: carol.publicId });
    assert.equal(stolen.statusCode, 400);
    assert.equal(stolen.json().error, 'invalid_grant');
    const client = await exchange(ada, { client_id: 'someone-else' });
    assert.equal(client.json().error, 'invalid_client');
    const grant = await exchange(ada, { grant_type: 'password' });
    assert.equal(grant.json().error, 'unsupported_grant_type');
  });

  it('refuses a revoked session', async () => {
    const session = await sessionFor(t.app, 'ada@acme.test');
    const logout = await t.app.inject({
      method: 'POST',
      url: '/account/logout',
      headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf, accept: 'application/json' },
    });
    assert.equal(logout.statusCode, 204);
    // The session-bound token died with the session…
    assert.equal((await exchange(session)).statusCode, 403);
    // …and with the fresh anonymous token the logout handed out, the revoked session is still refused.
    const anonymous = logout.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    const response = await exchange({
      ...session,
      xsrf: anonymous,
      cookie: `acct_session=${session.token}; XSRF-TOKEN=${anonymous}`,
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error, 'invalid_grant');
  });
});

describe('userinfo', () => {
  it('answers for a valid access token', async () => {
    const token = (await exchange(ada)).json().access_token as string;
    const response = await userinfo(token);
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(body.name, 'Ada Lovelace');
    assert.equal(body.email, 'ada@acme.test');
    assert.equal(body.team, 'acme');
    assert.match(body.team_id, /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(body.created_at)));
  });

  it('refuses expired, tampered, id, unsigned and foreign tokens with 401', async () => {
    const { access_token, id_token } = (await exchange(ada)).json();
    const [header, payload, signature] = access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone' })).toString('base64url')}.${signature}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
    const { privateKey } = await generateKeyPair('EdDSA');
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt' })
      .sign(privateKey);

    for (const [name, token] of Object.entries({
      tampered,
      none,
      foreign,
      id_token,
      garbage: 'not.a.token',
      empty: '',
    })) {
      const response = await userinfo(token);
      assert.equal(response.statusCode, 401, name);
      assert.match(String(response.headers['www-authenticate']), /invalid_token/);
    }
    t.clock.advance(3601_000);
    try {
      assert.equal((await userinfo(access_token)).statusCode, 401, 'expired');
    } finally {
      t.clock.advance(-3601_000);
    }
    assert.equal((await userinfo(access_token)).statusCode, 200);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/connect/userinfo' })).statusCode,
      401,
      'no header',
    );
  });
});

describe('remembered access tokens (the verified-token cache)', () => {
  it("still checks a remembered token's lifetime to the second, like the first verification", async () => {
    const { access_token } = (await exchange(ada)).json();
    const { exp } = decodeJwt(access_token);
    assert.equal((await userinfo(access_token)).statusCode, 200, 'first use: verified and remembered');
    const lastGoodSecond = exp! * 1000 - 1000 - t.clock.now();
    t.clock.advance(lastGoodSecond);
    try {
      assert.equal((await userinfo(access_token)).statusCode, 200, 'one second before exp');
      t.clock.advance(1000);
      assert.equal((await userinfo(access_token)).statusCode, 401, 'at exp');
      assert.equal((await userinfo(access_token)).statusCode, 401, 'at exp, again');
    } finally {
      t.clock.advance(-lastGoodSecond - 1000);
    }
    assert.equal((await userinfo(access_token)).statusCode, 200, 'verified afresh once the clock is back');
  });

  it('never lets a remembered token vouch for another string, nor outlive its session', async () => {
    const session = await sessionFor(t.app, 'ada@acme.test');
    const { access_token } = (await exchange(session)).json();
    assert.equal((await userinfo(access_token)).statusCode, 200);
    const [header, payload, signature] = access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone' })).toString('base64url')}.${signature}`;
    assert.equal((await userinfo(tampered)).statusCode, 401, 'same signature, other claims');
    assert.equal((await userinfo(`${access_token}x`)).statusCode, 401, 'a longer string');
    assert.equal((await userinfo(`x${access_token}`)).statusCode, 401, 'a string that ends the same');
    assert.equal((await userinfo(access_token)).statusCode, 200, 'the genuine token, still remembered');
    const logout = await t.app.inject({
      method: 'POST',
      url: '/account/logout',
      headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf, accept: 'application/json' },
    });
    assert.ok(logout.statusCode < 400, String(logout.statusCode));
    assert.equal((await userinfo(access_token)).statusCode, 401, 'after sign-out');
  });
});

describe('team and switcher', () => {
  it("gives a team's public details by name (any case) or id, and 404 otherwise", async () => {
    const acme = (await t.app.inject({ method: 'GET', url: '/api/team/public/ACME' })).json();
    assert.deepEqual(
      { ...acme, name: undefined, displayName: undefined },
      {
        name: undefined,
        displayName: undefined,
        teamDisabled: false,
        localOptions: {},
        googleOptions: {},
        azureOptions: {},
        auth0Options: { displayName: 'Acme SSO' },
        appleOptions: {},
        passkeyOptions: {},
      },
    );
    const umbrella = (await t.app.inject({ method: 'GET', url: '/api/team/public/umbrella' })).json();
    assert.equal(umbrella.localOptions, undefined);
    assert.deepEqual(umbrella.azureOptions, {});
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/api/team/public/initech' })).json().teamDisabled,
      true,
    );
    const token = (await exchange(ada)).json().access_token as string;
    const info = (await userinfo(token)).json();
    const byId = await t.app.inject({ method: 'GET', url: `/api/team/public/${info.team_id}` });
    assert.equal(byId.json().name, 'acme');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/team/public/nobody' })).statusCode, 404);
  });

  it('gives the dashboard address to a signed-in caller only', async () => {
    const token = (await exchange(ada)).json().access_token as string;
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/switcher',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(response.statusCode, 200);
    assert.ok('dashboard' in response.json());
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/switcher' })).statusCode, 401);
  });
});

describe('sessions', () => {
  it('reports the session on /account/check and ends it on logout', async () => {
    const session = await sessionFor(t.app, 'carol@globex.test');
    const check = () =>
      t.app.inject({
        method: 'POST',
        url: '/account/check',
        headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf },
      });
    assert.deepEqual((await check()).json(), { authenticated: true, session: session.publicId });
    const logout = await t.app.inject({
      method: 'POST',
      url: '/account/logout',
      headers: {
        cookie: session.cookie,
        'x-xsrf-token': session.xsrf,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: '',
    });
    assert.equal(logout.statusCode, 303);
    assert.equal(logout.headers.location, '/');
    const row = await t.db.kysely
      .selectFrom('sessions')
      .select('revoked_at')
      .where('public_id', '=', session.publicId)
      .executeTakeFirstOrThrow();
    assert.notEqual(row.revoked_at, null);
    // The old cookie no longer opens a session (its token is now checked as anonymous and refused).
    const after = await t.app.inject({
      method: 'POST',
      url: '/account/check',
      headers: { cookie: `acct_session=${session.token}` },
    });
    assert.equal(after.statusCode, 403);
    const cookieless = await t.app.inject({ method: 'POST', url: '/account/check' });
    assert.deepEqual(cookieless.json(), { authenticated: false });
  });

  it('expires idle sessions after 8 hours and all sessions after 7 days', async () => {
    const idle = await sessionFor(t.app, 'ada@acme.test');
    const check = (s: DirectSession) =>
      t.app.inject({
        method: 'POST',
        url: '/account/check',
        headers: { cookie: `acct_session=${s.token}`, origin: 'https://suite.example.test' },
      });
    t.clock.advance(8 * 3600_000 + 1000);
    try {
      assert.deepEqual((await check(idle)).json(), { authenticated: false });
    } finally {
      t.clock.advance(-(8 * 3600_000 + 1000));
    }
    const busy = await sessionFor(t.app, 'ada@acme.test');
    for (let hour = 0; hour < 7 * 24; hour += 6) {
      t.clock.advance(6 * 3600_000);
      const answer = (await check(busy)).json();
      if (hour + 6 < 7 * 24) assert.equal(answer.authenticated, true, `hour ${hour + 6}`);
      else assert.equal(answer.authenticated, false, 'past 7 days');
    }
    t.clock.offset = 0;
  });
});
