/**
 * A team's OpenID Connect connection (lib/oidc-connections.ts, routes/connections.ts and sso.ts),
 * against a real OpenID Provider (oidc-provider, the demo's Google stand-in, with a client for
 * connections) and the relying-party checks of openid-client: adding it (the secret sealed and never
 * shown), a test sign-in that keeps the claims or says why it failed, and signing in by the address's
 * domain — the request bound to the browser, spent once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { TeamConnection, TeamConnectionList } from '../../src/contract/schemas/connections';
import { STANDIN_SSO_CLIENT } from '../../demo/server/standin/providers';
import { signInAtProvider } from '../support/idp';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
let who: Callers;
let issuer: string;
let callback: string;

before(async () => {
  t = await createTestApp();
  who = await callers(t);
  issuer = t.standIns.get('google')!.issuer;
  callback = `${t.config.publicUrl}/sso/callback`;
});
after(() => t.close());

async function added(changes: Record<string, unknown> = {}): Promise<TeamConnection> {
  const response = await api(t, 'POST', '/api/team/connections', who.owner, {
    preset: 'oidc',
    name: 'Acme OIDC',
    issuer,
    clientId: STANDIN_SSO_CLIENT.id,
    clientSecret: STANDIN_SSO_CLIENT.secret,
    ...changes,
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as TeamConnection;
}

const current = async (id: string) =>
  ((await api(t, 'GET', '/api/team/connections', who.owner)).json() as TeamConnectionList).connections.find(
    (c) => c.id === id,
  )!;

/** The provider's redirect back, followed as the browser would (with its cookie, if any). */
const back = (url: URL, cookie?: string) =>
  t.app.inject({
    method: 'GET',
    url: `${url.pathname}${url.search}`,
    headers: cookie ? { cookie: `acct_sso=${cookie}` } : {},
  });

/** The admin's test sign-in, answered at the provider by `account`. */
async function testSignIn(connection: TeamConnection, account = 'ada') {
  const started = await api(t, 'POST', `/api/team/connections/${connection.id}/test`, who.owner);
  assert.equal(started.statusCode, 200, started.body);
  return back(await signInAtProvider((started.json() as { url: string }).url, account, callback));
}

const cookieOf = (response: LightMyRequestResponse, name: string) =>
  response.cookies.find((c) => c.name === name && c.value);

describe('an OpenID Connect connection', () => {
  it('keeps the issuer and client id, seals the secret and never shows it', async () => {
    const connection = await added();
    assert.deepEqual(
      [connection.protocol, connection.issuer, connection.clientId, connection.hasClientSecret],
      ['oidc', issuer, STANDIN_SSO_CLIENT.id, true],
    );
    assert.equal(connection.serviceProvider.redirectUri, callback);
    const listed = await api(t, 'GET', '/api/team/connections', who.owner);
    assert.ok(!listed.body.includes(STANDIN_SSO_CLIENT.secret), 'the secret is never answered');
    const stored = await t.db.kysely
      .selectFrom('team_connections')
      .select('client_secret')
      .where('id', '=', connection.id)
      .executeTakeFirstOrThrow();
    assert.notEqual(stored.client_secret, STANDIN_SSO_CLIENT.secret);
  });

  it('refuses another protocol’s details and an issuer that is no https address, at their field', async () => {
    expectError(
      await api(t, 'POST', '/api/team/connections', who.owner, {
        preset: 'oidc',
        name: 'x',
        ssoUrl: 'https://idp.example/sso',
      }),
      400,
      'wrongProtocol',
      'ssoUrl',
    );
    const refused = await api(t, 'POST', '/api/team/connections', who.owner, {
      preset: 'oidc',
      name: 'x',
      issuer: 'http://idp.example',
    });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().field, 'issuer');
    const saml = await api(t, 'POST', '/api/team/connections', who.owner, { preset: 'saml', name: 'y' });
    expectError(
      await api(t, 'PATCH', `/api/team/connections/${saml.json().id}`, who.owner, { clientId: 'c' }),
      400,
      'wrongProtocol',
      'clientId',
    );
  });

  it('tests with the provider: the claims received, then it can be turned on', async () => {
    const connection = await added();
    const answer = await testSignIn(connection);
    assert.equal(answer.statusCode, 303, answer.body);
    assert.match(answer.headers.location as string, /\/manage\/team\/connections\?test=/);
    assert.equal(cookieOf(answer, 'acct_session'), undefined, 'a test makes no session');
    const tested = await current(connection.id);
    assert.equal(tested.lastTest?.ok, true, JSON.stringify(tested.lastTest));
    assert.equal(tested.lastTest?.claims?.email, 'ada@acme.test');
    assert.equal(tested.lastTest?.claims?.givenName, 'Ada Lovelace', 'the whole name when that is all');
    const on = await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, { enabled: true });
    assert.equal(on.json().enabled, true);
    // A new secret is a rotation; another client is another provider to test.
    const rotated = await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, {
      clientSecret: STANDIN_SSO_CLIENT.secret,
    });
    assert.equal(rotated.json().enabled, true);
    const moved = await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, {
      clientId: 'another',
    });
    assert.deepEqual([moved.json().enabled, moved.json().testedAt], [false, null]);
  });

  it('says why a test failed: an address outside the verified domains, a provider not there', async () => {
    const connection = await added();
    await testSignIn(connection, 'eve');
    const outside = await current(connection.id);
    assert.deepEqual([outside.lastTest?.ok, outside.lastTest?.problem], [false, 'domain']);
    const gone = await added({ issuer: 'http://127.0.0.1:9/' });
    expectError(await api(t, 'POST', `/api/team/connections/${gone.id}/test`, who.owner), 409, 'discovery');
    assert.equal((await current(gone.id)).lastTest?.problem, 'discovery');
  });

  it('signs a new employee in by their address’s domain, once, in the browser that asked', async () => {
    const connection = await added();
    await testSignIn(connection);
    await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, {
      enabled: true,
      defaultPermissions: ['APPROVER'],
    });
    await api(t, 'PATCH', '/api/team/domains/acme.test', who.owner, {
      connectionId: connection.id,
      requireSso: false,
    });
    try {
      const started = await api(t, 'POST', '/account/sso/start', undefined, {
        teamName: 'acme',
        email: 'stranger@acme.test',
        returnUrl: '/manage',
      });
      const begin = new URL((started.json() as { location: string }).location);
      const begun = await t.app.inject({ method: 'GET', url: `${begin.pathname}${begin.search}` });
      assert.equal(begun.statusCode, 303, begun.body);
      const browser = cookieOf(begun, 'acct_sso');
      assert.equal(browser?.path, '/sso/callback');
      const redirect = await signInAtProvider(begun.headers.location as string, 'stranger', callback);

      const elsewhere = await back(redirect, 'another-browser');
      assert.equal(elsewhere.headers.location, '/login/acme?Error=SsoFailed&ReturnUrl=%2Fmanage');
      // The request was spent by that attempt: the right browser must start again.
      const again = await back(redirect, browser!.value);
      assert.equal(again.headers.location, '/login/team?Error=SsoFailed', 'no such request any more');

      const second = await api(t, 'POST', '/account/sso/start', undefined, {
        teamName: 'acme',
        email: 'stranger@acme.test',
        returnUrl: '/manage',
      });
      const next = new URL((second.json() as { location: string }).location);
      const begunAgain = await t.app.inject({ method: 'GET', url: `${next.pathname}${next.search}` });
      const cookie = cookieOf(begunAgain, 'acct_sso')!.value;
      const answer = await back(
        await signInAtProvider(begunAgain.headers.location as string, 'stranger', callback),
        cookie,
      );
      assert.equal(answer.headers.location, '/manage');
      assert.ok(cookieOf(answer, 'acct_session'), 'signed in');
      const member = await t.db.kysely
        .selectFrom('users')
        .select(['id', 'name'])
        .where('email', '=', 'stranger@acme.test')
        .executeTakeFirstOrThrow();
      assert.equal(member.name, 'Sam Stranger');
      assert.deepEqual([...(await t.app.services.repos.users.permissionsOf(member.id))], ['APPROVER']);
    } finally {
      await api(t, 'PATCH', '/api/team/domains/acme.test', who.owner, {
        connectionId: null,
        requireSso: false,
      });
    }
  });
});
