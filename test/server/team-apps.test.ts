/**
 * A team's applications, registered by its owners and admins (routes/team-apps.ts): who may, what is
 * refused and at which field, what the audit trail says, and apps made through the API working with
 * openid-client as the relying party (code + PKCE for the team's member, client credentials for a
 * machine app) until they are disabled, get a new secret or are deleted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as client from 'openid-client';
import type { TeamApp, TeamAppWithSecret } from '../../src/contract/schemas/team-apps';
import { InjectBrowser } from '../support/inject-browser';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, sessionFor, type TestApp } from '../support/test-server';

const ISSUER = 'http://localhost:8080';
const REDIRECT = 'https://board.acme.test/callback';

let t: TestApp;
let who: Callers;
before(async () => {
  t = await createTestApp();
  who = await callers(t);
});
after(() => t.close());

let counter = 0;
async function register(body: Record<string, unknown>, token = who.owner): Promise<TeamAppWithSecret> {
  const response = await api(t, 'POST', '/api/team/apps', token, {
    name: `App ${++counter}`,
    ...body,
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as TeamAppWithSecret;
}

/** openid-client's requests, answered by the app through inject (no port). */
const injectFetch: client.CustomFetch = async (url, options) => {
  const target = new URL(url);
  const response = await t.app.inject({
    method: options.method as 'GET' | 'POST',
    url: `${target.pathname}${target.search}`,
    headers: { ...(options.headers as Record<string, string>), host: target.host },
    ...(options.body === undefined || options.body === null ? {} : { payload: String(options.body) }),
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers))
    for (const one of [value ?? []].flat()) headers.append(name, String(one));
  return new Response(response.statusCode === 204 ? null : new Uint8Array(response.rawPayload), {
    status: response.statusCode,
    headers,
  });
};

/** openid-client's view of the server, every request of it (discovery too) through inject. */
const discover = (clientId: string, auth: client.ClientAuth) =>
  client
    .discovery(new URL(ISSUER), clientId, undefined, auth, {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: injectFetch,
    })
    .then((config) => {
      config[client.customFetch] = injectFetch;
      return config;
    });

describe('who may manage the team’s apps', () => {
  it('refuses without a token (401) and a member (403 notAdmin) on every call', async () => {
    const { app } = await register({ kind: 'spa', redirectUris: [REDIRECT] });
    for (const [method, url, body] of [
      ['GET', '/api/team/apps', undefined],
      ['POST', '/api/team/apps', { name: 'Nope', kind: 'machine' }],
      ['PATCH', `/api/team/apps/${app.clientId}`, { name: 'Nope' }],
      ['POST', `/api/team/apps/${app.clientId}/secret`, undefined],
      ['DELETE', `/api/team/apps/${app.clientId}`, undefined],
    ] as const) {
      expectError(await api(t, method, url, undefined, body), 401);
      expectError(await api(t, method, url, who.member, body), 403, 'notAdmin');
    }
  });

  it('answers another team’s admin 404 for acme’s apps, and lists only their own', async () => {
    const { app } = await register({ kind: 'web', redirectUris: [REDIRECT] });
    const url = `/api/team/apps/${app.clientId}`;
    expectError(await api(t, 'PATCH', url, who.otherAdmin, { disabled: true }), 404, 'notFound');
    expectError(await api(t, 'POST', `${url}/secret`, who.otherAdmin), 404, 'notFound');
    expectError(await api(t, 'DELETE', url, who.otherAdmin), 404, 'notFound');
    const theirs = (await api(t, 'GET', '/api/team/apps', who.otherAdmin)).json() as { apps: TeamApp[] };
    assert.ok(!theirs.apps.some((a) => a.clientId === app.clientId));
    const ours = (await api(t, 'GET', '/api/team/apps', who.owner)).json() as { apps: TeamApp[] };
    const listed = ours.apps.find((a) => a.clientId === app.clientId);
    assert.equal(listed?.disabled, false, 'untouched');
  });

  it('lets an admin who is not an owner do everything', async () => {
    const { app, clientSecret } = await register({ kind: 'machine' }, who.admin);
    assert.ok(clientSecret);
    const url = `/api/team/apps/${app.clientId}`;
    assert.equal((await api(t, 'PATCH', url, who.admin, { name: 'Renamed' })).statusCode, 200);
    assert.equal((await api(t, 'POST', `${url}/secret`, who.admin)).statusCode, 200);
    assert.equal((await api(t, 'DELETE', url, who.admin)).statusCode, 204);
  });
});

describe('registering and changing apps', () => {
  it('answers a secret once for web and machine apps, none for public ones, never in the list', async () => {
    const web = await register({ kind: 'web', redirectUris: [REDIRECT] });
    assert.match(web.clientSecret ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(web.app.hasSecret, true);
    for (const kind of ['spa', 'native', 'device'] as const) {
      const made = await register({ kind, redirectUris: kind === 'device' ? [] : [REDIRECT] });
      assert.equal(made.clientSecret, null, kind);
      assert.equal(made.app.hasSecret, false);
      expectError(await api(t, 'POST', `/api/team/apps/${made.app.clientId}/secret`, who.owner), 404);
    }
    const list = await api(t, 'GET', '/api/team/apps', who.owner);
    assert.ok(!list.body.includes(web.clientSecret!), 'the secret is not listed');
    const stored = await t.db.kysely
      .selectFrom('team_apps')
      .select('secret_hash')
      .where('client_id', '=', web.app.clientId)
      .executeTakeFirstOrThrow();
    assert.notEqual(stored.secret_hash, web.clientSecret, 'only its hash is stored');
  });

  it('refuses addresses strictly, naming the field', async () => {
    const refused = async (body: Record<string, unknown>, code: string, field: string) =>
      expectError(
        await api(t, 'POST', '/api/team/apps', who.owner, { name: 'Bad', ...body }),
        400,
        code,
        field,
      );
    await refused({ kind: 'web', redirectUris: [] }, 'uriRequired', 'redirectUris');
    await refused(
      { kind: 'web', redirectUris: ['http://board.acme.test/cb'] },
      'insecureUri',
      'redirectUris.0',
    );
    await refused(
      { kind: 'spa', redirectUris: [REDIRECT, `${REDIRECT}#x`] },
      'fragmentUri',
      'redirectUris.1',
    );
    await refused({ kind: 'web', redirectUris: ['/callback'] }, 'invalidUri', 'redirectUris.0');
    await refused({ kind: 'web', redirectUris: ['com.acme.board:/cb'] }, 'insecureUri', 'redirectUris.0');
    await refused(
      { kind: 'web', redirectUris: [REDIRECT], postLogoutRedirectUris: ['javascript:alert(1)'] },
      'insecureUri',
      'postLogoutRedirectUris.0',
    );
    await refused(
      { kind: 'web', redirectUris: [REDIRECT], backchannelLogoutUri: 'http://10.0.0.1/logout' },
      'insecureUri',
      'backchannelLogoutUri',
    );
    await refused({ kind: 'native', redirectUris: ['https://localhost/cb'] }, 'invalidUri', 'redirectUris.0');
    await refused({ kind: 'machine', redirectUris: [REDIRECT] }, 'uriNotAllowed', 'redirectUris');
    await refused(
      { kind: 'device', postLogoutRedirectUris: [REDIRECT] },
      'uriNotAllowed',
      'postLogoutRedirectUris',
    );
    await refused({ kind: 'spa', redirectUris: [REDIRECT], name: '   ' }, 'invalidName', 'name');
    expectError(await api(t, 'POST', '/api/team/apps', who.owner, { name: 'X', kind: 'robot' }), 400);
    // Loopback over http for development, and a native app's own scheme, are fine (RFC 8252).
    await register({ kind: 'spa', redirectUris: ['http://localhost:5173/cb', 'http://127.0.0.1:9/cb'] });
    await register({ kind: 'native', redirectUris: ['com.acme.board:/cb', 'http://[::1]/cb'] });
    const { app } = await register({ kind: 'spa', redirectUris: [REDIRECT] });
    expectError(
      await api(t, 'PATCH', `/api/team/apps/${app.clientId}`, who.owner, {
        redirectUris: ['http://x.test/'],
      }),
      400,
      'insecureUri',
      'redirectUris.0',
    );
    expectError(await api(t, 'PATCH', `/api/team/apps/${app.clientId}`, who.owner, {}), 400);
  });

  it('takes this machine as a logout URI only in demo mode, where the server posts to it', async () => {
    const local = {
      kind: 'web',
      redirectUris: [REDIRECT],
      backchannelLogoutUri: 'http://localhost:4000/bcl',
    };
    await register(local);
    const production = await createTestApp({ DEMO: 'false' });
    try {
      const admins = await callers(production);
      for (const backchannelLogoutUri of ['http://localhost:4000/bcl', 'https://127.0.0.1/bcl']) {
        expectError(
          await api(production, 'POST', '/api/team/apps', admins.owner, {
            name: 'Local',
            ...local,
            backchannelLogoutUri,
          }),
          400,
          'loopbackLogoutUri',
          'backchannelLogoutUri',
        );
      }
      const remote = { ...local, name: 'Remote', backchannelLogoutUri: 'https://board.acme.test/bcl' };
      const registered = await api(production, 'POST', '/api/team/apps', admins.owner, remote);
      assert.equal(registered.statusCode, 201, registered.body);
    } finally {
      await production.close();
    }
  });

  it('sets, refuses and takes away a back-channel logout URI; the change is audited', async () => {
    const { app } = await register({ kind: 'web', name: 'Logout app', redirectUris: [REDIRECT] });
    const url = `/api/team/apps/${app.clientId}`;
    const patch = (body: Record<string, unknown>) => api(t, 'PATCH', url, who.owner, body);
    const logoutUri = 'https://board.acme.test/backchannel';
    const set = await patch({ backchannelLogoutUri: logoutUri });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal((set.json() as TeamApp).backchannelLogoutUri, logoutUri);
    // Too long for the schema: refused at its field all the same, for the screen to show it there.
    expectError(
      await patch({ backchannelLogoutUri: `https://board.acme.test/${'a'.repeat(2000)}` }),
      400,
      'uriTooLong',
      'backchannelLogoutUri',
    );
    // A native app's own scheme is for its redirects; the server cannot post to it.
    const native = await register({ kind: 'native', redirectUris: ['com.acme.board:/cb'] });
    expectError(
      await api(t, 'PATCH', `/api/team/apps/${native.app.clientId}`, who.owner, {
        backchannelLogoutUri: 'com.acme.board:/logout',
      }),
      400,
      'insecureUri',
      'backchannelLogoutUri',
    );
    expectError(
      await api(t, 'POST', '/api/team/apps', who.owner, {
        name: 'No session',
        kind: 'machine',
        backchannelLogoutUri: logoutUri,
      }),
      400,
      'uriNotAllowed',
      'backchannelLogoutUri',
    );
    const cleared = await patch({ backchannelLogoutUri: null });
    assert.equal((cleared.json() as TeamApp).backchannelLogoutUri, null);

    const log = await api(t, 'GET', '/api/team/audit?kind=app&limit=50', who.owner);
    const changes = (log.json().events as Array<{ action: string; target: string; detail: unknown }>)
      .filter((event) => event.target === 'Logout app' && event.action === 'app.changed')
      .map((event) => (event.detail as { changed: string[] }).changed);
    assert.deepEqual(changes, [['backchannel_logout_uri'], ['backchannel_logout_uri']]);
  });

  it('records every change in the team’s audit trail', async () => {
    const { app } = await register({ kind: 'web', name: 'Audited app', redirectUris: [REDIRECT] });
    const url = `/api/team/apps/${app.clientId}`;
    await api(t, 'PATCH', url, who.owner, { thirdParty: true });
    await api(t, 'PATCH', url, who.owner, { disabled: true });
    await api(t, 'PATCH', url, who.owner, { disabled: false });
    await api(t, 'POST', `${url}/secret`, who.owner);
    await api(t, 'DELETE', url, who.owner);
    const log = await api(t, 'GET', '/api/team/audit?kind=app&limit=50', who.owner);
    const events = (log.json().events as Array<{ action: string; target: string; actor: { email: string } }>)
      .filter((event) => event.target === 'Audited app')
      .map((event) => `${event.action} ${event.actor.email}`);
    assert.deepEqual(events.reverse(), [
      'app.registered ada@acme.test',
      'app.changed ada@acme.test',
      'app.disabled ada@acme.test',
      'app.enabled ada@acme.test',
      'app.secretRotated ada@acme.test',
      'app.deleted ada@acme.test',
    ]);
  });
});

describe('apps made through the API, with openid-client', () => {
  it('a single-page app signs its team’s member in with code + PKCE, and refuses another team’s', async () => {
    const { app } = await register({ kind: 'spa', redirectUris: [REDIRECT] });
    const config = await discover(app.clientId, client.None());
    const signIn = async (email: string) => {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const address = client.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      const session = await sessionFor(t.app, email);
      const { location } = await new InjectBrowser(t.app, ISSUER, session.cookie).follow(
        `${address.pathname}${address.search}`,
      );
      assert.ok(location, 'ends at the app');
      return { location, verifier, state };
    };
    const ada = await signIn('ada@acme.test');
    const tokens = await client.authorizationCodeGrant(config, ada.location, {
      pkceCodeVerifier: ada.verifier,
      expectedState: ada.state,
    });
    const claims = tokens.claims()!;
    assert.equal(claims.email, 'ada@acme.test');
    assert.equal(claims.aud, app.clientId);
    const listed = (await api(t, 'GET', '/api/team/apps', who.owner)).json() as { apps: TeamApp[] };
    assert.ok(listed.apps.find((a) => a.clientId === app.clientId)?.lastUsedAt, 'last used is set');
    const carol = await signIn('carol@globex.test');
    assert.equal(carol.location.searchParams.get('error'), 'access_denied');
    assert.equal(carol.location.searchParams.get('code'), null);
  });

  it('a machine app gets client credentials until disabled, rotated or deleted', async () => {
    const made = await register({ kind: 'machine' });
    const url = `/api/team/apps/${made.app.clientId}`;
    const grant = async (secret: string) => {
      const config = await discover(made.app.clientId, client.ClientSecretBasic(secret));
      return client.clientCredentialsGrant(config, { scope: 'team.storage' });
    };
    const refusedWith = async (secret: string) =>
      // The token endpoint's 401 with its Basic challenge (invalid_client), as openid-client reports it.
      assert.rejects(grant(secret), (error: unknown) => {
        assert.ok(error instanceof client.WWWAuthenticateChallengeError);
        assert.equal(error.status, 401);
        return true;
      });
    const first = await grant(made.clientSecret!);
    const report = (token: string) => api(t, 'PUT', '/api/team/storage', token, { usedBytes: 1_000 });
    assert.equal((await report(first.access_token)).statusCode, 200);
    const listed = (await api(t, 'GET', '/api/team/apps', who.owner)).json() as { apps: TeamApp[] };
    assert.ok(listed.apps.find((a) => a.clientId === made.app.clientId)?.lastUsedAt, 'last used is set');

    await api(t, 'PATCH', url, who.owner, { disabled: true });
    expectError(await report(first.access_token), 401);
    await refusedWith(made.clientSecret!);
    await api(t, 'PATCH', url, who.owner, { disabled: false });

    const rotated = (await api(t, 'POST', `${url}/secret`, who.owner)).json() as TeamAppWithSecret;
    assert.ok(rotated.clientSecret && rotated.clientSecret !== made.clientSecret);
    await refusedWith(made.clientSecret!);
    const second = await grant(rotated.clientSecret);

    assert.equal((await api(t, 'DELETE', url, who.owner)).statusCode, 204);
    expectError(await report(second.access_token), 401);
    await refusedWith(rotated.clientSecret);
  });
});
