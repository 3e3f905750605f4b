/**
 * A team's own applications as the OpenID Provider's clients (lib/team-apps.ts): found in the database
 * at each lookup, their kind deciding what they may do, the secret checked against its stored hash,
 * and a change (a new secret, disabled, deleted, other addresses) counting at the next request.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { TeamAppFields } from '../../demo/server/db/team-apps';
import { newSecret } from '../../demo/server/lib/team-apps';
import { InjectBrowser } from '../support/inject-browser';
import { offlineCodeRequest, tokenRequest } from '../support/oidc-request';
import { createTestApp, sessionFor, type DirectSession, type TestApp } from '../support/test-server';

const ISSUER = 'http://localhost:8080';
const REDIRECT = 'https://planner.globex.test/callback';

describe('a team’s registered apps at the OpenID Provider', () => {
  let t: TestApp;
  let carol: DirectSession;
  let ada: DirectSession;
  let globex: string;
  let carolActor: { id: string; name: string; email: string };
  before(async () => {
    t = await createTestApp();
    carol = await sessionFor(t.app, 'carol@globex.test');
    ada = await sessionFor(t.app, 'ada@acme.test');
    const row = await t.db.kysely
      .selectFrom('users')
      .select(['id', 'team_id', 'name', 'email'])
      .where('email', '=', 'carol@globex.test')
      .executeTakeFirstOrThrow();
    globex = row.team_id;
    carolActor = { id: row.id, name: row.name, email: row.email };
  });
  after(() => t.close());

  const register = async (id: string, fields: Partial<TeamAppFields> & Pick<TeamAppFields, 'kind'>) => {
    const { secret, hash } = newSecret();
    const withSecret = fields.kind === 'web';
    await t.app.services.repos.teamApps.create(
      globex,
      {
        name: id,
        redirectUris: [REDIRECT],
        postLogoutRedirectUris: [],
        backchannelLogoutUri: null,
        thirdParty: false,
        ...fields,
        clientId: id,
        secretHash: withSecret ? hash : null,
        scopes: '',
      },
      carolActor,
      t.clock.now(),
    );
    return { secret, hash };
  };

  const token = (form: Record<string, string>, authorization?: string) =>
    tokenRequest(t.app, form, authorization);
  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${id}:${encodeURIComponent(secret)}`).toString('base64')}`;

  /** A code for the app, signed in as the session's user; the verifier and the app's answer. */
  async function signIn(clientId: string, session: DirectSession) {
    const { path, verifier } = offlineCodeRequest(clientId, REDIRECT);
    const { location, response } = await new InjectBrowser(t.app, ISSUER, session.cookie).follow(path);
    return { location, response, verifier, code: location?.searchParams.get('code') ?? null };
  }
  const exchange = (code: string, verifier: string, auth: { basic?: string; clientId?: string }) =>
    token(
      {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        ...(auth.clientId ? { client_id: auth.clientId } : {}),
      },
      auth.basic,
    );

  it('a web app signs its team’s member in with its secret; the stored hash and an old secret fail', async () => {
    const { secret, hash } = await register('globex-web', { kind: 'web' });
    const first = await signIn('globex-web', carol);
    assert.ok(first.code, `a code: ${first.location?.href}`);
    const withHash = await exchange(first.code, first.verifier, { basic: basic('globex-web', hash) });
    assert.equal(withHash.statusCode, 401, withHash.body);
    assert.equal(withHash.json().error, 'invalid_client');
    const answer = await exchange(first.code, first.verifier, { basic: basic('globex-web', secret) });
    assert.equal(answer.statusCode, 200, answer.body);
    const refresh = answer.json().refresh_token as string;
    assert.ok(refresh);
    // In the form body too (client_secret_post), the secret itself only.
    const posted = await token({
      grant_type: 'refresh_token',
      refresh_token: refresh,
      client_id: 'globex-web',
      client_secret: hash,
    });
    assert.equal(posted.json().error, 'invalid_client');
    const rotated = newSecret();
    assert.ok(
      await t.app.services.repos.teamApps.rotateSecret(
        globex,
        'globex-web',
        rotated.hash,
        carolActor,
        t.clock.now(),
      ),
    );
    const old = await token(
      { grant_type: 'refresh_token', refresh_token: refresh },
      basic('globex-web', secret),
    );
    assert.equal(old.statusCode, 401, 'the old secret stops at once');
    const renewed = await token(
      { grant_type: 'refresh_token', refresh_token: refresh },
      basic('globex-web', rotated.secret),
    );
    assert.equal(renewed.statusCode, 200, renewed.body);
  });

  it('refuses another team’s member, and a single-page app exchanges its code without a secret', async () => {
    await register('globex-spa', { kind: 'spa' });
    const other = await signIn('globex-spa', ada);
    assert.equal(other.location?.searchParams.get('error'), 'access_denied');
    assert.equal(other.code, null);
    const own = await signIn('globex-spa', carol);
    assert.ok(own.code);
    const answer = await exchange(own.code, own.verifier, { clientId: 'globex-spa' });
    assert.equal(answer.statusCode, 200, answer.body);
  });

  it('a disabled or deleted app signs nobody in, and its refresh tokens stop', async () => {
    await register('globex-off', { kind: 'spa' });
    const own = await signIn('globex-off', carol);
    const answer = await exchange(own.code!, own.verifier, { clientId: 'globex-off' });
    const refresh = answer.json().refresh_token as string;
    const repos = t.app.services.repos;
    await repos.teamApps.update(globex, 'globex-off', { disabled: true }, carolActor, t.clock.now());
    const refused = await signIn('globex-off', carol);
    assert.equal(refused.response.statusCode, 400, 'the refusal page: no such client');
    assert.match(refused.response.body, /invalid_client/);
    await repos.teamApps.update(globex, 'globex-off', { disabled: false }, carolActor, t.clock.now());
    const again = await token({
      grant_type: 'refresh_token',
      refresh_token: refresh,
      client_id: 'globex-off',
    });
    assert.equal(again.json().error, 'invalid_grant', 'disabling deleted its grants');
    const fresh = await signIn('globex-off', carol);
    const second = await exchange(fresh.code!, fresh.verifier, { clientId: 'globex-off' });
    const refresh2 = second.json().refresh_token as string;
    assert.ok(await repos.teamApps.remove(globex, 'globex-off', carolActor, t.clock.now()));
    const gone = await token({
      grant_type: 'refresh_token',
      refresh_token: refresh2,
      client_id: 'globex-off',
    });
    assert.equal(gone.statusCode, 401, gone.body);
  });

  it('a changed redirect URI counts at the next request', async () => {
    await register('globex-moved', { kind: 'spa' });
    assert.ok((await signIn('globex-moved', carol)).code);
    await t.app.services.repos.teamApps.update(
      globex,
      'globex-moved',
      { redirectUris: ['https://elsewhere.globex.test/cb'] },
      carolActor,
      t.clock.now(),
    );
    const refused = await signIn('globex-moved', carol);
    assert.equal(refused.response.statusCode, 400);
    assert.match(refused.response.body, /invalid_redirect_uri/);
  });

  it('a native app takes its own scheme and loopback addresses; a device app starts the device flow', async () => {
    const loopback = 'http://127.0.0.1/callback';
    await register('globex-native', { kind: 'native', redirectUris: ['com.globex.planner:/cb', loopback] });
    const { path } = offlineCodeRequest('globex-native', loopback);
    // RFC 8252 §7.3: any port of a registered loopback address.
    const withPort = path.replace(
      encodeURIComponent(loopback),
      encodeURIComponent('http://127.0.0.1:4711/callback'),
    );
    const { location } = await new InjectBrowser(t.app, ISSUER, carol.cookie).follow(withPort);
    assert.equal(location?.origin, 'http://127.0.0.1:4711');
    assert.ok(location?.searchParams.get('code'));
    await register('globex-device', { kind: 'device', redirectUris: [] });
    const started = await t.app.inject({
      method: 'POST',
      url: '/oidc/device/auth',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ client_id: 'globex-device', scope: 'openid' }).toString(),
    });
    assert.equal(started.statusCode, 200, started.body);
    assert.ok(started.json().user_code);
  });

  it('a third-party team app asks its team’s member for consent', async () => {
    await register('globex-partner', { kind: 'spa', thirdParty: true });
    const { location } = await signIn('globex-partner', carol);
    assert.match(location?.pathname ?? '', /^\/consent\//);
  });
});

describe('a team app’s back-channel logout address', () => {
  /**
   * Whether a logout token reaches a team's web app listening on this machine when its user signs out
   * of the portal: the app is registered, signs carol in, and the portal's Sign out ends her session.
   */
  async function tokenReachesLoopbackApp(env: Record<string, string>): Promise<boolean> {
    const received: string[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(body);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const t = await createTestApp(env);
    try {
      const carol = await sessionFor(t.app, 'carol@globex.test');
      const user = await t.db.kysely
        .selectFrom('users')
        .select(['id', 'team_id', 'name', 'email'])
        .where('email', '=', 'carol@globex.test')
        .executeTakeFirstOrThrow();
      const { secret, hash } = newSecret();
      const port = (receiver.address() as AddressInfo).port;
      await t.app.services.repos.teamApps.create(
        user.team_id,
        {
          name: 'Told',
          kind: 'web',
          redirectUris: [REDIRECT],
          postLogoutRedirectUris: [],
          backchannelLogoutUri: `http://127.0.0.1:${port}/logout`,
          thirdParty: false,
          clientId: 'globex-told',
          secretHash: hash,
          scopes: '',
        },
        { id: user.id, name: user.name, email: user.email },
        t.clock.now(),
      );
      const { path, verifier } = offlineCodeRequest('globex-told', REDIRECT);
      const { location } = await new InjectBrowser(t.app, ISSUER, carol.cookie).follow(path);
      const code = location?.searchParams.get('code');
      assert.ok(code, `a code: ${location?.href}`);
      const basic = `Basic ${Buffer.from(`globex-told:${encodeURIComponent(secret)}`).toString('base64')}`;
      const exchange = await tokenRequest(
        t.app,
        { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT },
        basic,
      );
      assert.equal(exchange.statusCode, 200, exchange.body);
      const signOut = await t.app.inject({
        method: 'POST',
        url: '/account/logout',
        headers: { cookie: carol.cookie, 'x-xsrf-token': carol.xsrf, accept: 'application/json' },
      });
      assert.equal(signOut.statusCode, 204, signOut.body);
      // The token leaves once the sign-out has answered; a refused one never comes.
      const deadline = Date.now() + 5000;
      while (received.length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      return received.some((body) => new URLSearchParams(body).has('logout_token'));
    } finally {
      await t.close();
      receiver.close();
    }
  }

  it('is posted to on this machine in demo mode, where the demo’s apps listen', async () => {
    assert.equal(await tokenReachesLoopbackApp({}), true);
  });

  it('outside demo mode, is never posted to on this machine: its admins, not the operator, chose it', async () => {
    assert.equal(await tokenReachesLoopbackApp({ DEMO: 'false' }), false);
  });
});
