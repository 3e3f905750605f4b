/**
 * The OpenID Provider mounted in the server (routes/oidc.ts, lib/openid-provider.ts), driven through
 * Fastify inject as a browser and a relying party would: discovery, the code flow with PKCE handed to
 * the portal's sign-in and finished from its session, tokens checked against the JWKS, userinfo,
 * refresh rotation, revocation, introspection, and the refusals (PKCE, redirect URI, replay).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { loadConfig, ConfigError } from '../../demo/server/config';
import { InjectBrowser } from '../support/inject-browser';
import { tokenRequest } from '../support/oidc-request';
import {
  createTestApp,
  sessionFor,
  tokenFor,
  type DirectSession,
  type TestApp,
} from '../support/test-server';

const PUBLIC_CLIENT = 'test-public-app';
const CONFIDENTIAL_CLIENT = 'test-server-app';
const THIRD_PARTY_CLIENT = 'test-partner-app';
const SECRET = 'test-server-app-secret-0123456789abcdef';
const REDIRECT = 'https://app.example.test/callback';
const SIGNED_OUT = 'https://app.example.test/signed-out';
const ISSUER = 'http://localhost:8080';

const clientsFile = (dir: string) => {
  const path = join(dir, 'oidc-clients.json');
  writeFileSync(
    path,
    JSON.stringify([
      {
        client_id: PUBLIC_CLIENT,
        redirect_uris: [REDIRECT],
        post_logout_redirect_uris: [SIGNED_OUT],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
      },
      {
        client_id: THIRD_PARTY_CLIENT,
        client_name: 'Partner Board',
        third_party: true,
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
      },
      {
        client_id: CONFIDENTIAL_CLIENT,
        client_secret: SECRET,
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ]),
  );
  return path;
};

const verifierPair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

const basic = `Basic ${Buffer.from(`${CONFIDENTIAL_CLIENT}:${SECRET}`).toString('base64')}`;

describe('the OpenID Provider', () => {
  let t: TestApp;
  let ada: DirectSession;
  // The clients file lies in a directory of its own, written before the app reads its config.
  const dir = mkdtempSync(join(tmpdir(), 'oidc-'));
  before(async () => {
    t = await createTestApp({ OIDC_CLIENTS_FILE: clientsFile(dir) });
    ada = await sessionFor(t.app, 'ada@acme.test');
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A browser on this test's app, with the portal's session when given. */
  class Browser extends InjectBrowser {
    constructor(portalCookie?: string) {
      super(t.app, ISSUER, portalCookie);
    }
  }

  const authorize = (params: Record<string, string>) =>
    `/oidc/auth?${new URLSearchParams({
      client_id: PUBLIC_CLIENT,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid profile email',
      state: 'state-1',
      nonce: 'nonce-1',
      ...params,
    })}`;

  const token = (form: Record<string, string>, authorization?: string) =>
    tokenRequest(t.app, form, authorization);

  /** A public client's code exchange. */
  const publicCodeGrant = (code: string, verifier: string, clientId = PUBLIC_CLIENT) =>
    token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });

  /** Signs ada in through the code flow with the portal session: the code and the verifier. */
  async function codeFor(params: Record<string, string> = {}, browser = new Browser(ada.cookie)) {
    const { verifier, challenge } = verifierPair();
    const { location } = await browser.follow(
      authorize({ code_challenge: challenge, code_challenge_method: 'S256', ...params }),
    );
    assert.ok(location, 'ends at the app');
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
    return { code: location.searchParams.get('code')!, verifier, location, browser };
  }

  const jwks = async () =>
    createLocalJWKSet(
      (await t.app.inject({ method: 'GET', url: '/.well-known/jwks' })).json() as JSONWebKeySet,
    );

  it('lists the provider in the issuer’s discovery, beside what the spec lists', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' });
    assert.equal(response.statusCode, 200);
    const doc = response.json();
    assert.equal(doc.issuer, ISSUER);
    assert.equal(doc.authorization_endpoint, `${ISSUER}/oidc/auth`);
    assert.equal(doc.token_endpoint, `${ISSUER}/connect/token`);
    assert.equal(doc.userinfo_endpoint, `${ISSUER}/connect/userinfo`);
    assert.equal(doc.jwks_uri, `${ISSUER}/.well-known/jwks`);
    assert.equal(doc.end_session_endpoint, `${ISSUER}/oidc/session/end`);
    assert.equal(doc.revocation_endpoint, `${ISSUER}/oidc/token/revocation`);
    assert.equal(doc.introspection_endpoint, `${ISSUER}/oidc/token/introspection`);
    assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
    assert.equal(doc.authorization_response_iss_parameter_supported, true);
    assert.ok(doc.device_authorization_endpoint);
    for (const grant of ['device_code', 'client_credentials', 'authorization_code', 'refresh_token'])
      assert.ok(doc.grant_types_supported.includes(grant), grant);
    // The provider's own discovery names the same issuer.
    const own = (await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' })).json();
    assert.equal(own.issuer, ISSUER);
    // Nothing the provider would refuse: the code flow only.
    assert.deepEqual(doc.response_types_supported, own.response_types_supported);
  });

  it('sends a browser without a portal session to the portal’s sign-in, and to the team’s when named', async () => {
    const { challenge } = verifierPair();
    const signedOut = new Browser();
    const first = await signedOut.follow(
      authorize({ code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    assert.equal(first.location?.pathname, '/login/team');
    assert.match(first.location?.searchParams.get('ReturnUrl') ?? '', /^\/oidc\/interaction\/[\w-]+$/);
    const team = await new Browser().follow(
      authorize({ code_challenge: challenge, code_challenge_method: 'S256', team: 'acme' }),
    );
    assert.equal(team.location?.pathname, '/login/acme');

    // Once signed in, the ReturnUrl finishes the login and the browser goes on to the app.
    for (const [name, value] of new Browser(ada.cookie).jar) signedOut.jar.set(name, value);
    const back = await signedOut.follow(first.location!.searchParams.get('ReturnUrl')!);
    assert.equal(`${back.location?.origin}${back.location?.pathname}`, REDIRECT);
    assert.ok(back.location?.searchParams.get('code'));
  });

  it('signs in with the code flow and PKCE: state, iss, tokens verified against the JWKS, userinfo', async () => {
    const { code, verifier, location } = await codeFor();
    assert.equal(location.searchParams.get('state'), 'state-1');
    assert.equal(location.searchParams.get('iss'), ISSUER);
    const response = await publicCodeGrant(code, verifier);
    assert.equal(response.statusCode, 200, response.body);
    const tokens = response.json();
    const keys = await jwks();
    const id = await jwtVerify(tokens.id_token, keys, { issuer: ISSUER, audience: PUBLIC_CLIENT });
    assert.equal(id.payload.nonce, 'nonce-1');
    assert.equal(id.payload.email, 'ada@acme.test');
    assert.equal(id.payload.name, 'Ada Lovelace');
    assert.equal(id.payload.team, 'acme');
    assert.equal(typeof id.payload.team_id, 'string');
    assert.ok(Array.isArray(id.payload.groups));
    assert.equal(typeof id.payload.auth_time, 'number');
    assert.deepEqual(id.payload.amr, ['pwd']);
    const access = await jwtVerify(tokens.access_token, keys, {
      issuer: ISSUER,
      audience: t.config.accessTokenAudience,
      typ: 'at+jwt',
    });
    assert.equal(access.payload.sub, id.payload.sub);
    assert.equal(decodeProtectedHeader(tokens.access_token).kid, t.app.services.keys.signingKey().kid);

    const userinfo = await t.app.inject({
      method: 'GET',
      url: '/connect/userinfo',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(userinfo.statusCode, 200, userinfo.body);
    assert.equal(userinfo.json().email, 'ada@acme.test');
    assert.equal(userinfo.json().team, 'acme');
  });

  it('refuses a code used twice, a wrong verifier, and a missing one', async () => {
    const first = await codeFor();
    const exchange = (code: string, verifier?: string) =>
      token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: PUBLIC_CLIENT,
        ...(verifier ? { code_verifier: verifier } : {}),
      });
    assert.equal((await exchange(first.code, first.verifier)).statusCode, 200);
    const replay = await exchange(first.code, first.verifier);
    assert.equal(replay.statusCode, 400);
    assert.equal(replay.json().error, 'invalid_grant');

    const second = await codeFor();
    const wrong = await exchange(second.code, verifierPair().verifier);
    assert.equal(wrong.json().error, 'invalid_grant');

    const third = await codeFor();
    const missing = await exchange(third.code);
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().error, /invalid_(grant|request)/);
  });

  it('refuses an authorization request without PKCE, and an unknown redirect URI without redirecting', async () => {
    const browser = new Browser(ada.cookie);
    const noPkce = await browser.get(authorize({}));
    assert.equal(noPkce.statusCode, 303);
    const back = new URL(String(noPkce.headers.location));
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
    assert.equal(back.searchParams.get('error'), 'invalid_request');

    const { challenge } = verifierPair();
    const refusedParams: Array<Record<string, string>> = [
      { redirect_uri: 'https://evil.example.test/callback' },
      { redirect_uri: `${REDIRECT}/more` },
      { client_id: 'no-such-client' },
    ];
    for (const params of refusedParams) {
      const refused = await browser.get(
        authorize({ code_challenge: challenge, code_challenge_method: 'S256', ...params }),
      );
      assert.equal(refused.statusCode, 400, JSON.stringify(params));
      assert.equal(refused.headers.location, undefined);
    }
  });

  it('answers prompt=none from a live portal session, and login_required once it has ended', async () => {
    const session = await sessionFor(t.app, 'ada@acme.test');
    const browser = new Browser(session.cookie);
    await codeFor({}, browser);
    const { challenge } = verifierPair();
    const silent = await browser.follow(
      authorize({ code_challenge: challenge, code_challenge_method: 'S256', prompt: 'none' }),
    );
    assert.ok(silent.location?.searchParams.get('code'), silent.visited.join(' → '));

    const signOut = await t.app.inject({
      method: 'POST',
      url: '/account/logout',
      headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf },
    });
    assert.ok(signOut.statusCode < 400, `${signOut.statusCode} ${signOut.body}`);
    const after = await browser.follow(
      authorize({ code_challenge: challenge, code_challenge_method: 'S256', prompt: 'none' }),
    );
    assert.equal(after.location?.searchParams.get('error'), 'login_required');
    assert.equal(after.location?.searchParams.get('code'), null);
  });

  describe('an app’s sign-out (RP-initiated logout)', () => {
    /** A browser signed in to the portal and, through the code flow, to the provider; its id token. */
    async function signedIn() {
      const session = await sessionFor(t.app, 'ada@acme.test');
      const { code, verifier, browser } = await codeFor({}, new Browser(session.cookie));
      const response = await publicCodeGrant(code, verifier);
      assert.equal(response.statusCode, 200, response.body);
      return { session, browser, idToken: String(response.json().id_token) };
    }
    const endSession = (params: Record<string, string>) => `/oidc/session/end?${new URLSearchParams(params)}`;
    /** What a silent authorization answers now: a code, or the error. */
    async function silently(browser: Browser) {
      const { challenge } = verifierPair();
      const { location } = await browser.follow(
        authorize({ code_challenge: challenge, code_challenge_method: 'S256', prompt: 'none' }),
      );
      return location?.searchParams.get('error') ?? (location?.searchParams.get('code') ? 'code' : null);
    }
    const portalSessionLives = async (token: string) =>
      (await t.app.services.sessions.resolve(token)) !== null;
    /** The question page's form: where it posts and its anti-forgery field. */
    const questionForm = (body: string) => ({
      action: new URL(/<form method="post" action="([^"]+)"/.exec(body)![1]!.replace(/&#38;/g, '&')).pathname,
      xsrf: /name="xsrf" value="([^"]+)"/.exec(body)![1]!,
    });

    it('signs out of the provider and the portal at once with a hint naming the user, back to the app with state', async () => {
      const { session, browser, idToken } = await signedIn();
      const response = await browser.get(
        endSession({ id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT, state: 'bye' }),
      );
      assert.equal(response.statusCode, 303, response.body);
      const location = new URL(String(response.headers.location));
      assert.equal(`${location.origin}${location.pathname}`, SIGNED_OUT);
      assert.equal(location.searchParams.get('state'), 'bye');
      assert.equal(await portalSessionLives(session.token), false);
      assert.equal(browser.jar.has('acct_session'), false);
      assert.equal(await silently(browser), 'login_required');
    });

    it('refuses a post-logout address the app did not register, and ends nothing', async () => {
      const { session, browser, idToken } = await signedIn();
      const response = await browser.get(
        endSession({ id_token_hint: idToken, post_logout_redirect_uri: `${SIGNED_OUT}/other`, state: 's' }),
      );
      assert.equal(response.statusCode, 400);
      assert.equal(response.headers.location, undefined);
      assert.match(response.body, /invalid_request/);
      assert.equal(await portalSessionLives(session.token), true);
      assert.equal(await silently(browser), 'code');
    });

    it('asks first without a hint, in the browser’s language, on a page without script', async () => {
      const { session, browser } = await signedIn();
      const response = await browser.get(endSession({}), { 'accept-language': 'de-DE,de;q=0.9' });
      assert.equal(response.statusCode, 200);
      assert.match(
        String(response.headers['content-security-policy']),
        /^default-src 'none'; style-src 'self'; form-action 'self'/,
      );
      assert.match(response.body, /<html lang="de" dir="ltr">/);
      assert.match(response.body, /Möchten Sie sich abmelden\?/);
      assert.match(response.body, /<button type="submit" name="logout" value="yes">Abmelden<\/button>/);
      assert.match(response.body, /Angemeldet bleiben/);
      assert.doesNotMatch(response.body, /<script|<style/);
      assert.equal(await portalSessionLives(session.token), true);

      // "Sign out" ends both; the page after it says so, in the language asked for.
      const { action, xsrf } = questionForm(response.body);
      const confirmed = await browser.post(action, { xsrf, logout: 'yes' });
      assert.equal(confirmed.statusCode, 303, confirmed.body);
      assert.equal(await portalSessionLives(session.token), false);
      assert.equal(await silently(browser), 'login_required');
      const done = await browser.get(new URL(String(confirmed.headers.location), ISSUER).pathname, {
        'accept-language': 'de',
      });
      assert.equal(done.statusCode, 200);
      assert.equal(done.headers['content-security-policy'], "default-src 'none'; style-src 'self'");
      assert.match(done.body, /Sie sind abgemeldet/);
      assert.doesNotMatch(done.body, /<script|<style/);
    });

    it('asks when the hint names someone else, and “Stay signed in” ends nothing', async () => {
      const { idToken } = await signedIn();
      const bob = await sessionFor(t.app, 'bob@acme.test');
      const browser = new Browser(bob.cookie);
      await codeFor({}, browser);
      const response = await browser.get(
        endSession({ id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT, state: 'stay' }),
      );
      assert.equal(response.statusCode, 200);
      assert.match(response.body, /Do you want to sign out\?/);
      // The answer goes back to the app's registered address: the form may lead there.
      assert.equal(
        response.headers['content-security-policy'],
        "default-src 'none'; style-src 'self'; form-action 'self' https://app.example.test",
      );
      const { action, xsrf } = questionForm(response.body);
      const stayed = await browser.post(action, { xsrf });
      assert.equal(stayed.statusCode, 303);
      assert.equal(new URL(String(stayed.headers.location)).searchParams.get('state'), 'stay');
      assert.equal(await portalSessionLives(bob.token), true);
      assert.notEqual(await silently(browser), 'login_required');
    });
  });

  it('passes login_hint on to the sign-in screen and ui_locales on as the language cookie', async () => {
    const { challenge } = verifierPair();
    const browser = new Browser();
    const first = await browser.follow(
      authorize({
        code_challenge: challenge,
        code_challenge_method: 'S256',
        login_hint: 'ada@acme.test',
        ui_locales: 'tlh de-CH fr',
      }),
    );
    assert.equal(first.location?.pathname, '/login/team');
    assert.equal(first.location?.searchParams.get('login_hint'), 'ada@acme.test');
    assert.equal(first.location?.searchParams.get('max_age'), null);
    assert.equal(browser.jar.get('acct-lang'), 'de');
    // Nothing the portal does not speak: the language stays the user's own.
    const other = new Browser();
    await other.follow(
      authorize({ code_challenge: challenge, code_challenge_method: 'S256', ui_locales: 'tlh' }),
    );
    assert.equal(other.jar.has('acct-lang'), false);
    // A language the user chose wins over the app's hint.
    const chosen = new Browser('acct-lang=fr');
    await chosen.follow(
      authorize({ code_challenge: challenge, code_challenge_method: 'S256', ui_locales: 'de' }),
    );
    assert.equal(chosen.jar.get('acct-lang'), 'fr');
  });

  /** An authorization request that waits at the sign-in screen: the screen's address and the verifier. */
  async function toSignIn(browser: Browser, params: Record<string, string>) {
    const { verifier, challenge } = verifierPair();
    const { location, visited } = await browser.follow(
      authorize({ code_challenge: challenge, code_challenge_method: 'S256', ...params }),
    );
    assert.ok(location && location.pathname.startsWith('/login/'), visited.join(' → '));
    return { screen: location, verifier };
  }

  const idTokenOf = async (code: string, verifier: string) => {
    const response = await publicCodeGrant(code, verifier);
    assert.equal(response.statusCode, 200, response.body);
    return (await jwtVerify(response.json().id_token as string, await jwks())).payload;
  };

  const freshness: Array<Record<string, string>> = [{ prompt: 'login' }, { max_age: '0' }, { max_age: '60' }];
  for (const fresh of freshness) {
    it(`asks a signed-in user to sign in again for ${new URLSearchParams(fresh)}, then finishes with the new session`, async () => {
      // A portal session (and the provider's sign-in on it) from two minutes ago.
      t.clock.offset = -120_000;
      const old = await sessionFor(t.app, 'ada@acme.test');
      t.clock.offset = 0;
      const browser = new Browser(old.cookie);
      const before = await codeFor({}, browser);
      const oldAuthTime = (await idTokenOf(before.code, before.verifier)).auth_time as number;

      const { screen, verifier } = await toSignIn(browser, fresh);
      assert.equal(screen.pathname, '/login/acme');
      assert.equal(screen.searchParams.get('login_hint'), 'ada@acme.test');
      assert.equal(screen.searchParams.get('max_age'), fresh.max_age ?? '0');
      const returnUrl = screen.searchParams.get('ReturnUrl')!;
      // Coming back with the old session still asks for a sign-in: the old one never finishes it.
      const stillOld = await browser.follow(returnUrl);
      assert.equal(stillOld.location?.pathname, '/login/acme', stillOld.visited.join(' → '));

      // Signed in again (a new portal session): the login finishes with it, a fresh auth_time.
      const renewed = await sessionFor(t.app, 'ada@acme.test');
      for (const [name, value] of new Browser(renewed.cookie).jar) browser.jar.set(name, value);
      const back = await browser.follow(returnUrl);
      assert.equal(`${back.location?.origin}${back.location?.pathname}`, REDIRECT, back.visited.join(' → '));
      const id = await idTokenOf(back.location!.searchParams.get('code')!, verifier);
      assert.ok((id.auth_time as number) >= oldAuthTime + 100, `${id.auth_time} after ${oldAuthTime}`);
    });
  }

  it('takes a portal session younger than max_age without asking again', async () => {
    const browser = new Browser((await sessionFor(t.app, 'ada@acme.test')).cookie);
    const { location } = await codeFor({ max_age: '3600' }, browser);
    assert.ok(location.searchParams.get('code'));
  });

  it('answers an expired or foreign sign-in request with a page in the browser’s language', async () => {
    const response = await new Browser(ada.cookie).get('/oidc/interaction/no-such-interaction', {
      'accept-language': 'de-DE,de;q=0.9,en;q=0.5',
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.headers.location, undefined);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    assert.equal(response.headers['content-security-policy'], "default-src 'none'; style-src 'self'");
    assert.match(response.body, /<html lang="de" dir="ltr">/);
    assert.match(response.body, /Kehren Sie zur App zurück/);
    // A way on for someone signed in here meanwhile (a sign-up finished from its mail elsewhere).
    assert.match(response.body, /<a href="\/">Zu Ihrem Konto<\/a>/);
    assert.match(response.body, /Fehlercode: invalid_request/);
  });

  it('shows a refused authorization request in the language of ui_locales, never redirecting', async () => {
    const { challenge } = verifierPair();
    const refused = await new Browser().get(
      authorize({
        code_challenge: challenge,
        code_challenge_method: 'S256',
        redirect_uri: 'https://evil.example.test/callback',
        ui_locales: 'fr-CA',
      }),
      { 'accept-language': 'ja' },
    );
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.headers.location, undefined);
    assert.equal(refused.headers['content-security-policy'], "default-src 'none'; style-src 'self'");
    assert.match(refused.body, /<html lang="fr" dir="ltr">/);
    assert.match(refused.body, /Revenez à l’application/);
    assert.match(refused.body, /Code d’erreur : invalid_redirect_uri/);
    // Without ui_locales, the browser's language.
    const japanese = await new Browser().get(
      authorize({ code_challenge: challenge, code_challenge_method: 'S256', client_id: 'no-such-client' }),
      { 'accept-language': 'ja' },
    );
    assert.match(japanese.body, /<html lang="ja" dir="ltr">/);
    assert.match(japanese.body, /エラーコード: invalid_client/);
  });

  it('gives a rotating refresh token for offline_access, revokes it, and introspects', async () => {
    const { code, verifier } = await codeFor({
      client_id: CONFIDENTIAL_CLIENT,
      scope: 'openid email offline_access',
      prompt: 'consent',
    });
    const first = await token(
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT },
      basic,
    );
    assert.equal(first.statusCode, 200, first.body);
    const refresh1 = first.json().refresh_token as string;
    assert.ok(refresh1, 'a refresh token');

    const second = await token({ grant_type: 'refresh_token', refresh_token: refresh1 }, basic);
    assert.equal(second.statusCode, 200, second.body);
    const refresh2 = second.json().refresh_token as string;
    assert.notEqual(refresh2, refresh1, 'rotated');
    const reused = await token({ grant_type: 'refresh_token', refresh_token: refresh1 }, basic);
    assert.equal(reused.json().error, 'invalid_grant');

    const introspect = (value: string) =>
      t.app.inject({
        method: 'POST',
        url: '/oidc/token/introspection',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        payload: new URLSearchParams({ token: value }).toString(),
      });
    // The replayed refresh token revoked the whole grant (RFC 9700 §4.14.2): sign in again.
    assert.equal((await introspect(refresh2)).json().active, false);
    const again = await codeFor({
      client_id: CONFIDENTIAL_CLIENT,
      scope: 'openid email offline_access',
      prompt: 'consent',
    });
    const fresh = (
      await token(
        {
          grant_type: 'authorization_code',
          code: again.code,
          code_verifier: again.verifier,
          redirect_uri: REDIRECT,
        },
        basic,
      )
    ).json().refresh_token as string;
    const live = (await introspect(fresh)).json();
    assert.equal(live.active, true);
    assert.equal(live.client_id, CONFIDENTIAL_CLIENT);

    const revoked = await t.app.inject({
      method: 'POST',
      url: '/oidc/token/revocation',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      payload: new URLSearchParams({ token: fresh }).toString(),
    });
    assert.equal(revoked.statusCode, 200);
    assert.equal((await introspect(fresh)).json().active, false);
    const afterRevoke = await token({ grant_type: 'refresh_token', refresh_token: fresh }, basic);
    assert.equal(afterRevoke.json().error, 'invalid_grant');
  });

  describe('a third-party app', () => {
    const api = (method: 'GET' | 'POST' | 'DELETE', url: string, accessToken?: string, body?: object) =>
      t.app.inject({
        method,
        url,
        headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
        ...(body ? { payload: body } : {}),
      });

    /** A new browser of ada's for the third-party app; where the flow stopped (the consent screen?). */
    async function askPartner(params: Record<string, string> = {}, given?: Browser) {
      const browser = given ?? new Browser((await sessionFor(t.app, 'ada@acme.test')).cookie);
      const { verifier, challenge } = verifierPair();
      const flow = await browser.follow(
        authorize({
          client_id: THIRD_PARTY_CLIENT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          ...params,
        }),
      );
      assert.ok(flow.location, 'stops somewhere');
      return { ...flow, location: flow.location, verifier, browser };
    }

    const consentUid = (location: URL) => {
      const match = /^\/consent\/([^/]+)$/.exec(location.pathname);
      assert.ok(match, `the consent screen, not ${location.href}`);
      return decodeURIComponent(match[1]!);
    };

    /** Answers the question as ada, then follows the browser on to the app. */
    async function answer(browser: Browser, uid: string, allow: boolean, accessToken: string) {
      const reply = await api('POST', `/api/oidc/consent/${uid}`, accessToken, { allow });
      assert.equal(reply.statusCode, 200, reply.body);
      const to = new URL(reply.json().redirectTo as string);
      assert.equal(to.origin, ISSUER);
      const { location } = await browser.follow(`${to.pathname}${to.search}`);
      assert.ok(location);
      assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
      return location;
    }

    it('is asked for consent, only by its user; allowed once, it is remembered; prompt=consent asks again', async () => {
      const adaApi = (await tokenFor(t.app, 'ada@acme.test')).accessToken;
      const bobApi = (await tokenFor(t.app, 'bob@acme.test')).accessToken;
      // The deployment's own app is never asked.
      assert.equal(`${(await codeFor()).location.origin}`, new URL(REDIRECT).origin);

      const first = await askPartner({ scope: 'openid profile email' });
      const uid = consentUid(first.location);
      assert.equal((await api('GET', `/api/oidc/consent/${uid}`)).statusCode, 401);
      // Another user (of the same team) neither sees nor answers ada's question.
      assert.equal((await api('GET', `/api/oidc/consent/${uid}`, bobApi)).statusCode, 404);
      assert.equal((await api('POST', `/api/oidc/consent/${uid}`, bobApi, { allow: true })).statusCode, 404);
      const details = await api('GET', `/api/oidc/consent/${uid}`, adaApi);
      assert.equal(details.statusCode, 200, details.body);
      assert.equal(details.json().app, 'Partner Board');
      assert.ok(details.json().team);
      assert.deepEqual(details.json().scopes, ['profile', 'email']);

      const back = await answer(first.browser, uid, true, adaApi);
      const tokens = await publicCodeGrant(
        back.searchParams.get('code')!,
        first.verifier,
        THIRD_PARTY_CLIENT,
      );
      assert.equal(tokens.statusCode, 200, tokens.body);
      // Answered, the question is gone.
      assert.equal((await api('GET', `/api/oidc/consent/${uid}`, adaApi)).statusCode, 404);

      // Another browser, a new portal session: straight back to the app.
      const again = await askPartner({ scope: 'openid profile email' });
      assert.equal(`${again.location.origin}${again.location.pathname}`, REDIRECT);
      assert.ok(again.location.searchParams.get('code'));
      // prompt=consent always asks.
      consentUid((await askPartner({ scope: 'openid profile email', prompt: 'consent' })).location);
    });

    it('answers access_denied to the app when the user does not allow it', async () => {
      const adaApi = (await tokenFor(t.app, 'ada@acme.test')).accessToken;
      const flow = await askPartner({ scope: 'openid email', prompt: 'consent' });
      const back = await answer(flow.browser, consentUid(flow.location), false, adaApi);
      assert.equal(back.searchParams.get('error'), 'access_denied');
      assert.equal(back.searchParams.get('state'), 'state-1');
      assert.equal(back.searchParams.get('code'), null);
    });

    it('lists the user’s connected apps, and removing one revokes its refresh token and asks again', async () => {
      const adaApi = (await tokenFor(t.app, 'ada@acme.test')).accessToken;
      const carolApi = (await tokenFor(t.app, 'carol@globex.test')).accessToken;
      assert.equal((await api('GET', '/api/user/apps')).statusCode, 401);
      assert.equal((await api('DELETE', `/api/user/apps/${THIRD_PARTY_CLIENT}`)).statusCode, 401);

      const flow = await askPartner({ scope: 'openid email offline_access', prompt: 'consent' });
      const back = await answer(flow.browser, consentUid(flow.location), true, adaApi);
      const tokens = await publicCodeGrant(back.searchParams.get('code')!, flow.verifier, THIRD_PARTY_CLIENT);
      const refresh = tokens.json().refresh_token as string;
      assert.ok(refresh, tokens.body);
      // The app's own access token (accepted on bearer routes) neither lists nor removes apps, nor
      // answers a consent question.
      const partnerApi = tokens.json().access_token as string;
      assert.equal((await api('GET', '/api/user/apps', partnerApi)).statusCode, 403);
      assert.equal((await api('DELETE', `/api/user/apps/${THIRD_PARTY_CLIENT}`, partnerApi)).statusCode, 403);
      const pending = await askPartner({ scope: 'openid email offline_access', prompt: 'consent' });
      const pendingUid = consentUid(pending.location);
      assert.equal((await api('GET', `/api/oidc/consent/${pendingUid}`, partnerApi)).statusCode, 403);
      assert.equal(
        (await api('POST', `/api/oidc/consent/${pendingUid}`, partnerApi, { allow: true })).statusCode,
        403,
      );

      const listed = await api('GET', '/api/user/apps', adaApi);
      assert.equal(listed.statusCode, 200, listed.body);
      const apps = listed.json().apps as Array<Record<string, unknown>>;
      const partner = apps.find((entry) => entry.id === THIRD_PARTY_CLIENT);
      assert.ok(partner, listed.body);
      assert.equal(partner.name, 'Partner Board');
      assert.equal(partner.thirdParty, true);
      assert.ok((partner.scopes as string[]).includes('offline_access'));
      assert.ok(Date.parse(String(partner.lastUsedAt)) > 0);
      const own = apps.find((entry) => entry.id === PUBLIC_CLIENT);
      assert.equal(own?.thirdParty, false);
      // Another user's list holds none of ada's apps, and cannot remove them.
      assert.deepEqual((await api('GET', '/api/user/apps', carolApi)).json(), { apps: [] });
      assert.equal((await api('DELETE', `/api/user/apps/${THIRD_PARTY_CLIENT}`, carolApi)).statusCode, 404);
      // Nor does a member of ada's team; and ada, their team's owner, removes only her own grants.
      const bob = await tokenFor(t.app, 'bob@acme.test');
      await codeFor({}, new Browser(bob.cookie));
      assert.equal(
        (await api('DELETE', `/api/user/apps/${THIRD_PARTY_CLIENT}`, bob.accessToken)).statusCode,
        404,
      );
      assert.equal((await api('DELETE', `/api/user/apps/${PUBLIC_CLIENT}`, adaApi)).statusCode, 204);
      const bobs = (await api('GET', '/api/user/apps', bob.accessToken)).json().apps as Array<{ id: string }>;
      assert.deepEqual(
        bobs.map((entry) => entry.id),
        [PUBLIC_CLIENT],
      );
      const kept = await token({
        grant_type: 'refresh_token',
        refresh_token: refresh,
        client_id: THIRD_PARTY_CLIENT,
      });
      assert.equal(kept.statusCode, 200, kept.body);
      const rotated = kept.json().refresh_token as string;

      const removed = await api('DELETE', `/api/user/apps/${THIRD_PARTY_CLIENT}`, adaApi);
      assert.equal(removed.statusCode, 204, removed.body);
      const refused = await token({
        grant_type: 'refresh_token',
        refresh_token: rotated,
        client_id: THIRD_PARTY_CLIENT,
      });
      assert.equal(refused.json().error, 'invalid_grant');
      const after = (await api('GET', '/api/user/apps', adaApi)).json().apps as Array<{ id: string }>;
      assert.ok(!after.some((entry) => entry.id === THIRD_PARTY_CLIENT));
      assert.equal((await api('DELETE', `/api/user/apps/${THIRD_PARTY_CLIENT}`, adaApi)).statusCode, 404);
      // Both are in ada's security log, by the app's name; the 404 added nothing.
      const log = (await api('GET', '/api/user/activity', adaApi)).json().events as Array<{
        kind: string;
        app?: string;
      }>;
      const partnerLog = log.filter((event) => event.app === 'Partner Board').map((event) => event.kind);
      assert.equal(partnerLog[0], 'appAccessRemoved', partnerLog.join());
      assert.equal(partnerLog.filter((kind) => kind === 'appAccessRemoved').length, 1, partnerLog.join());
      assert.ok(partnerLog.includes('appAllowed'), partnerLog.join());
      // The same browser (its provider session still names the removed grant) is asked again.
      consentUid((await askPartner({ scope: 'openid email' }, flow.browser)).location);
    });
  });

  it('signs with the new key once a rotated key starts signing', async () => {
    const kid = await t.app.services.keys.rotate(t.clock.now());
    const { code, verifier } = await codeFor();
    const tokens = (await publicCodeGrant(code, verifier)).json();
    assert.equal(decodeProtectedHeader(tokens.id_token).kid, kid);
    assert.equal(decodeProtectedHeader(tokens.access_token).kid, kid);
  });
});

describe('OIDC_CLIENTS_FILE', () => {
  it('reports what is wrong with the clients file with the rest of the configuration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oidc-config-'));
    const path = join(dir, 'clients.json');
    writeFileSync(
      path,
      JSON.stringify([
        { client_id: 'a', redirect_uris: ['https://a.test/cb#frag'] },
        { client_id: 'a', redirect_uris: ['not a url'] },
        { redirect_uris: ['https://b.test/cb'] },
        { client_id: 'c' },
        { client_id: 'd', redirect_uris: ['https://d.test/cb'], post_logout_redirect_uris: ['/signed-out'] },
        { client_id: 'e', redirect_uris: ['https://e.test/cb'], third_party: 'yes' },
      ]),
    );
    assert.throws(
      () => loadConfig({ OIDC_CLIENTS_FILE: path, PORT: 'x' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        const text = error.problems.join('\n');
        assert.match(text, /PORT/);
        assert.match(text, /redirect URI "https:\/\/a\.test\/cb#frag"/);
        assert.match(text, /client_id a appears twice/);
        assert.match(text, /redirect URI "not a url"/);
        assert.match(text, /entry 2 needs a client_id/);
        assert.match(text, /entry 3 \(c\) needs redirect_uris/);
        assert.match(text, /\(d\): redirect URI "\/signed-out"/);
        assert.match(text, /\(e\): third_party must be true or false/);
        return true;
      },
    );
    writeFileSync(path, '{"client_id": "x"}');
    assert.throws(() => loadConfig({ OIDC_CLIENTS_FILE: path }), /must hold a JSON array/);
    assert.throws(() => loadConfig({ OIDC_CLIENTS_FILE: join(dir, 'missing.json') }), /cannot be read/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds the demo suite app’s client in demo mode only', () => {
    assert.ok(loadConfig({}).oidcClients.some((client) => client.client_id === 'acct-suite-app'));
    const partner = loadConfig({}).oidcClients.find((client) => client.client_id === 'acct-partner-board');
    assert.equal(partner?.third_party, true);
    assert.deepEqual(loadConfig({ DEMO: 'false' }).oidcClients, []);
  });
});
