/**
 * Back-channel logout (lib/app-logout.ts): whichever way a portal session ends, each app that signed in
 * through it gets a logout token at its `backchannel_logout_uri` (a real loopback HTTP receiver here),
 * checked as an app would (signature by the server's JWKS, iss, aud, events, sid of its id token, sub,
 * no nonce), and the refresh token of that sign-in is refused from then on.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { loadConfig } from '../../demo/server/config';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { offlineCodeRequest } from '../support/oidc-request';
import { TestSmtp } from '../support/smtp';
import { createTestApp, sessionFor, tokenFor, type TestApp } from '../support/test-server';
import { proofFor } from '../support/proof';

const ISSUER = 'http://localhost:8080';
const REDIRECT = 'https://app.example.test/callback';
const SIGNED_OUT = 'https://app.example.test/signed-out';
const APPS = ['test-mail-app', 'test-files-app'] as const;
/** An app whose logout endpoint refuses connections. */
const BROKEN_APP = 'test-broken-app';
type AppId = (typeof APPS)[number] | typeof BROKEN_APP;
const SECRET = 'test-logout-app-secret-0123456789abcdef';
const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** The apps' back-channel logout endpoint: every logout token it is sent, by app. */
class LogoutReceiver {
  readonly tokens: { app: string; token: string }[] = [];
  private waiting: (() => void)[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<LogoutReceiver> {
    const server = createServer();
    const receiver = new LogoutReceiver(server);
    server.on('request', (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const token = new URLSearchParams(body).get('logout_token');
        if (request.method === 'POST' && token) receiver.tokens.push({ app: request.url!.slice(1), token });
        response.writeHead(200).end();
        for (const wake of receiver.waiting.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(app: string) {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/${app}`;
  }

  /** The logout token sent to `app` for its session `sid`, waiting up to 5 s for it. */
  async next(app: AppId, sid: unknown): Promise<string> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const index = this.tokens.findIndex((t) => t.app === app && decodeJwt(t.token).sid === sid);
      if (index >= 0) return this.tokens.splice(index, 1)[0]!.token;
      const left = deadline - Date.now();
      assert.ok(left > 0, `no logout token for ${app}`);
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        setTimeout(resolve, left);
      });
    }
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('back-channel logout when a portal session ends', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let receiver: LogoutReceiver;
  const dir = mkdtempSync(join(tmpdir(), 'oidc-logout-'));

  before(async () => {
    receiver = await LogoutReceiver.start();
    smtp = await TestSmtp.start();
    const clients = join(dir, 'oidc-clients.json');
    writeFileSync(
      clients,
      JSON.stringify(
        [...APPS, BROKEN_APP].map((client_id) => ({
          client_id,
          client_secret: SECRET,
          redirect_uris: [REDIRECT],
          post_logout_redirect_uris: [SIGNED_OUT],
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'client_secret_basic',
          // Port 9 (discard) is closed here: the connection is refused at once.
          backchannel_logout_uri:
            client_id === BROKEN_APP ? 'http://127.0.0.1:9/logout' : receiver.url(client_id),
        })),
      ),
    );
    t = await createTestApp({ OIDC_CLIENTS_FILE: clients, SMTP_URL: smtp.url });
  });
  after(async () => {
    await t.close();
    await smtp.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, init: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: { host: 'localhost:8080' }, ...init });

  /** A browser over inject that follows the provider's redirects until it leaves for the app. */
  async function browse(url: string, jar: Map<string, string>) {
    let next = url;
    for (;;) {
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const response = await inject('GET', next, { headers: { host: 'localhost:8080', cookie } });
      for (const line of [response.headers['set-cookie'] ?? []].flat()) {
        const [name, ...value] = line.split(';')[0]!.split('=');
        jar.set(name!.trim(), value.join('='));
      }
      const location = new URL(String(response.headers.location ?? ''), ISSUER);
      assert.ok([302, 303].includes(response.statusCode), `${next} answered ${response.statusCode}`);
      if (location.origin !== ISSUER) return location;
      next = `${location.pathname}${location.search}`;
    }
  }

  const basic = (app: AppId) => `Basic ${Buffer.from(`${app}:${SECRET}`).toString('base64')}`;
  const token = (app: AppId, form: Record<string, string>) =>
    inject('POST', '/connect/token', {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(app),
      },
      payload: new URLSearchParams(form).toString(),
    });

  interface AppSignIn {
    app: AppId;
    idToken: JWTPayload;
    rawIdToken: string;
    refreshToken: string;
  }

  /** The app signs the browser's portal user in (code flow, PKCE, offline access). */
  async function signInAt(app: AppId, jar: Map<string, string>): Promise<AppSignIn> {
    const { path, verifier } = offlineCodeRequest(app, REDIRECT);
    const back = await browse(path, jar);
    const code = back.searchParams.get('code');
    assert.ok(code, `a code for ${app}`);
    const answer = await token(app, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    });
    assert.equal(answer.statusCode, 200, answer.body);
    const { id_token: rawIdToken, refresh_token: refreshToken } = answer.json();
    const idToken = decodeJwt(rawIdToken as string);
    assert.equal(typeof idToken.sid, 'string', 'the id token has a sid');
    return { app, idToken, rawIdToken, refreshToken };
  }

  /** A browser with a portal session of `email`, signed in at both apps through it. */
  async function signedInEverywhere(email: string) {
    const portal = await sessionFor(t.app, email);
    const jar = new Map(portal.cookie.split('; ').map((pair) => pair.split('=') as [string, string]));
    const signIns = [await signInAt(APPS[0], jar), await signInAt(APPS[1], jar)];
    // Both sign-ins stand on one provider session: each app has its own sid.
    assert.notEqual(signIns[0]!.idToken.sid, signIns[1]!.idToken.sid);
    assert.equal(signIns[0]!.idToken.sub, signIns[1]!.idToken.sub);
    return { portal, jar, signIns };
  }

  /** Each app got a valid logout token for its sign-in, and its refresh token is refused. */
  async function assertLoggedOut(signIns: AppSignIn[]) {
    const keys = createLocalJWKSet(
      (await t.app.inject({ method: 'GET', url: '/.well-known/jwks' })).json() as JSONWebKeySet,
    );
    for (const { app, idToken, refreshToken } of signIns) {
      const sub = String(idToken.sub);
      const { payload, protectedHeader } = await jwtVerify(await receiver.next(app, idToken.sid), keys, {
        issuer: ISSUER,
        audience: app,
      });
      assert.equal(protectedHeader.typ, 'logout+jwt');
      assert.deepEqual(payload.events, { [EVENT]: {} });
      assert.equal(payload.sid, idToken.sid);
      assert.equal(payload.sub, sub);
      assert.equal(payload.nonce, undefined, 'a logout token has no nonce');
      assert.ok(payload.jti && payload.iat, 'jti and iat');
      const refreshed = await token(app, { grant_type: 'refresh_token', refresh_token: refreshToken });
      assert.equal(refreshed.json().error, 'invalid_grant', `${app}: the refresh token is refused`);
    }
  }

  /** Nothing more reached the apps (the logout is sent once). */
  async function assertNothingElseSent() {
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(receiver.tokens, []);
  }

  const adminToken = async () => (await tokenFor(t.app, 'ada@acme.test')).accessToken;
  const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
  const memberId = async (email: string) =>
    (await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow())
      .id;

  it('says so in the discovery, and gives each app a sid in its id token', async () => {
    const doc = (await inject('GET', '/.well-known/openid-configuration', {})).json();
    assert.equal(doc.backchannel_logout_supported, true);
    assert.equal(doc.backchannel_logout_session_supported, true);
    const { signIns } = await signedInEverywhere('ada@acme.test');
    assert.ok(signIns.every((s) => typeof s.idToken.sid === 'string'));
  });

  it('the header’s Sign out: every app of the session is logged out, its refresh token refused', async () => {
    const { portal, signIns } = await signedInEverywhere('ada@acme.test');
    // Another browser of the same user stays signed in at its apps.
    const other = await signedInEverywhere('ada@acme.test');
    const logout = await inject('POST', '/account/logout', {
      headers: { cookie: portal.cookie, 'x-xsrf-token': portal.xsrf, accept: 'application/json' },
    });
    assert.equal(logout.statusCode, 204);
    await assertLoggedOut(signIns);
    await assertNothingElseSent();
    const refreshed = await token(APPS[0], {
      grant_type: 'refresh_token',
      refresh_token: other.signIns[0]!.refreshToken,
    });
    assert.equal(refreshed.statusCode, 200, 'the other browser’s sign-in goes on');
  });

  it('a failing app neither fails the sign-out nor keeps the others from being told', async () => {
    const { portal, jar, signIns } = await signedInEverywhere('ada@acme.test');
    const broken = await signInAt(BROKEN_APP, jar);
    const logout = await inject('POST', '/account/logout', {
      headers: { cookie: portal.cookie, 'x-xsrf-token': portal.xsrf, accept: 'application/json' },
    });
    assert.equal(logout.statusCode, 204);
    await assertLoggedOut(signIns);
    const refreshed = await token(BROKEN_APP, {
      grant_type: 'refresh_token',
      refresh_token: broken.refreshToken,
    });
    assert.equal(refreshed.json().error, 'invalid_grant');
  });

  /** The browser signs in with a password over its portal session (the old session ends). */
  async function signInAgain(jar: Map<string, string>, teamName: string, email: string) {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const again = await inject('POST', '/account/login', {
      headers: { cookie, 'x-xsrf-token': jar.get('XSRF-TOKEN')!, 'content-type': 'application/json' },
      payload: JSON.stringify({ teamName, email, password: DEMO_PASSWORD }),
    });
    assert.equal(again.statusCode, 200, again.body);
  }

  it('signing in again as the same user keeps the apps signed in; as another, logs them out', async () => {
    const { jar, signIns } = await signedInEverywhere('ada@acme.test');
    await signInAgain(jar, 'acme', 'ada@acme.test');
    await assertNothingElseSent();
    for (const { app, refreshToken } of signIns) {
      const refreshed = await token(app, { grant_type: 'refresh_token', refresh_token: refreshToken });
      assert.equal(refreshed.statusCode, 200, refreshed.body);
    }
    const other = await signedInEverywhere('ada@acme.test');
    await signInAgain(other.jar, 'globex', 'carol@globex.test');
    await assertLoggedOut(other.signIns);
  });

  it('the app’s own sign-out (end_session) logs every app of the session out', async () => {
    const { jar, signIns } = await signedInEverywhere('ada@acme.test');
    const query = new URLSearchParams({
      id_token_hint: signIns[0]!.rawIdToken,
      post_logout_redirect_uri: SIGNED_OUT,
    });
    const back = await browse(`/oidc/session/end?${query}`, jar);
    assert.equal(`${back.origin}${back.pathname}`, SIGNED_OUT);
    await assertLoggedOut(signIns);
    await assertNothingElseSent();
  });

  it('an app’s sign-out also tells the apps of an older provider session on the same portal session', async () => {
    const portal = await sessionFor(t.app, 'ada@acme.test');
    const jar = new Map(portal.cookie.split('; ').map((pair) => pair.split('=') as [string, string]));
    const older = await signInAt(APPS[0], jar);
    // The provider's cookie is gone (another tab's sign-out, a cleared cookie): a new provider session.
    jar.delete('oidc_session');
    const newer = await signInAt(APPS[1], jar);
    const query = new URLSearchParams({
      id_token_hint: newer.rawIdToken,
      post_logout_redirect_uri: SIGNED_OUT,
    });
    await browse(`/oidc/session/end?${query}`, jar);
    await assertLoggedOut([older, newer]);
  });

  it('the sessions screen ending another session logs its apps out', async () => {
    const { signIns } = await signedInEverywhere('carol@globex.test');
    const here = await tokenFor(t.app, 'carol@globex.test');
    const listed = await inject('GET', '/api/user/sessions', { headers: bearer(here.accessToken) });
    const { sessions } = listed.json() as { sessions: { id: string; current: boolean }[] };
    const target = sessions.find((s) => !s.current);
    assert.ok(target, 'the other session is listed');
    const ended = await inject('DELETE', `/api/user/sessions/${target.id}`, {
      headers: bearer(here.accessToken),
    });
    assert.equal(ended.statusCode, 204);
    await assertLoggedOut(signIns);
  });

  it('a member disabled by an admin is logged out of the apps', async () => {
    const { signIns } = await signedInEverywhere('bob@acme.test');
    const id = await memberId('bob@acme.test');
    const admin = await adminToken();
    const patch = (disabled: boolean) =>
      inject('PATCH', `/api/team/members/${id}`, {
        headers: { ...bearer(admin), 'content-type': 'application/json' },
        payload: JSON.stringify({ disabled }),
      });
    assert.equal((await patch(true)).statusCode, 200);
    await assertLoggedOut(signIns);
    assert.equal((await patch(false)).statusCode, 200);
  });

  it('a member their company’s directory deactivates (SCIM) is logged out of the apps', async () => {
    const { signIns } = await signedInEverywhere('bob@acme.test');
    const id = await memberId('bob@acme.test');
    const made = await inject('POST', '/api/team/directories', {
      headers: { ...bearer(await adminToken()), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Okta', signIn: 'sso' }),
    });
    assert.equal(made.statusCode, 201, made.body);
    const directory = (made.json() as { token: string }).token;
    const active = (value: boolean) =>
      inject('PATCH', `/scim/v2/Users/${id}`, {
        headers: { ...bearer(directory), 'content-type': 'application/scim+json' },
        payload: JSON.stringify({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'replace', value: { active: value } }],
        }),
      });
    assert.equal((await active(false)).statusCode, 200);
    await assertLoggedOut(signIns);
    assert.equal((await active(true)).statusCode, 200);
  });

  it('a member removed by an admin is logged out of the apps', async () => {
    const { signIns } = await signedInEverywhere('locked@acme.test');
    const removed = await inject('DELETE', `/api/team/members/${await memberId('locked@acme.test')}`, {
      headers: bearer(await adminToken()),
    });
    assert.equal(removed.statusCode, 204);
    await assertLoggedOut(signIns);
  });

  it('an account deleted by its user is logged out of the apps', async () => {
    const { signIns } = await signedInEverywhere('carol@globex.test');
    const here = await tokenFor(t.app, 'carol@globex.test');
    const deleted = await inject('DELETE', '/api/user', {
      headers: { ...bearer(here.accessToken), 'content-type': 'application/json' },
      payload: JSON.stringify({ password: DEMO_PASSWORD }),
    });
    assert.equal(deleted.statusCode, 204, deleted.body);
    await assertLoggedOut(signIns);
  });

  it('a password reset ends the sessions and logs their apps out', async () => {
    const { signIns } = await signedInEverywhere('ada@acme.test');
    const post = (url: string, body: unknown) =>
      inject('POST', url, { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const proof = await proofFor(t.app);
    const asked = await post('/api/user/password/request', {
      teamName: 'acme',
      userName: 'ada@acme.test',
      proof,
    });
    assert.equal(asked.statusCode, 200);
    const link = new URL((await smtp.next('ada@acme.test', /password/i)).link!);
    const reset = await post('/api/user/password/reset', {
      teamName: 'acme',
      userId: link.searchParams.get('id'),
      token: link.searchParams.get('token'),
      newPassword: 'A new and long passphrase 42',
    });
    assert.equal(reset.statusCode, 200, reset.body);
    await assertLoggedOut(signIns);
  });
});

describe('OIDC_CLIENTS_FILE back-channel logout metadata', () => {
  it('takes an https address, plain http to a loopback address in demo mode only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oidc-logout-config-'));
    const path = join(dir, 'clients.json');
    const client = (backchannel: Record<string, unknown>) => ({
      client_id: `c${Math.random()}`,
      redirect_uris: ['https://a.test/cb'],
      ...backchannel,
    });
    writeFileSync(
      path,
      JSON.stringify([
        client({
          backchannel_logout_uri: 'https://a.test/logout',
          backchannel_logout_session_required: true,
        }),
        client({ backchannel_logout_uri: 'http://127.0.0.1:9999/logout' }),
      ]),
    );
    const taken = loadConfig({ OIDC_CLIENTS_FILE: path }).oidcClients;
    assert.ok(taken.some((c) => c.backchannel_logout_uri === 'http://127.0.0.1:9999/logout'));
    assert.throws(() => loadConfig({ OIDC_CLIENTS_FILE: path, DEMO: 'false' }), /must be https/);
    writeFileSync(
      path,
      JSON.stringify([
        client({ backchannel_logout_uri: 'http://a.test/logout' }),
        client({ backchannel_logout_uri: 'not a url' }),
        client({ backchannel_logout_uri: 'https://a.test/logout#x' }),
        client({
          backchannel_logout_uri: 'https://a.test/logout',
          backchannel_logout_session_required: 'yes',
        }),
      ]),
    );
    assert.throws(
      () => loadConfig({ OIDC_CLIENTS_FILE: path }),
      (error: Error & { problems?: string[] }) => {
        const text = (error.problems ?? []).join('\n');
        assert.match(text, /entry 0 .*"http:\/\/a\.test\/logout" must be https/);
        assert.match(text, /entry 1 .*"not a url" must be an absolute URL/);
        assert.match(text, /entry 2 .*without #/);
        assert.match(text, /entry 3 .*backchannel_logout_session_required must be true or false/);
        return true;
      },
    );
    rmSync(dir, { recursive: true, force: true });
  });
});
