/**
 * The OpenID Provider end to end: openid-client (v6) as an independent relying party, Chromium through
 * the portal's real sign-in screens. The relying party's redirect URI is a page of the test's own
 * loopback server: the test reads the address the provider sent the browser to.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { screenshot, useE2E } from '../support/browser';
import { BACKCHANNEL_PATH, logoutTokenFor, takeLogoutToken } from '../support/logout-tokens';

const CLIENT_ID = 'e2e-relying-party';
/** A third-party app: it asks for consent. */
const PARTNER_ID = 'e2e-partner';
const SECRET = 'e2e-relying-party-secret-0123456789abcdef';

const dir = mkdtempSync(join(tmpdir(), 'oidc-e2e-'));
/** The relying party's page: any address answers a blank page; its back-channel logout takes tokens. */
let app: Server | undefined;
/** The logout tokens the relying party was sent (its `backchannel_logout_uri`). */
const logoutTokens: string[] = [];
let REDIRECT = '';
let SIGNED_OUT = '';
let APP_ORIGIN = '';
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  // The browser keeps its connections to the page open: end them, or close() waits for them.
  app?.closeAllConnections();
  await new Promise((resolve) => app?.close(resolve));
});

const e2e = useE2E(async () => {
  app = createServer((req, res) => {
    if (takeLogoutToken(req, res, logoutTokens)) return;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>');
  });
  await new Promise<void>((resolve) => app!.listen(0, '127.0.0.1', resolve));
  APP_ORIGIN = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  REDIRECT = `${APP_ORIGIN}/callback`;
  SIGNED_OUT = `${APP_ORIGIN}/signed-out`;
  const file = join(dir, 'clients.json');
  writeFileSync(
    file,
    JSON.stringify([
      {
        client_id: CLIENT_ID,
        client_secret: SECRET,
        redirect_uris: [REDIRECT],
        post_logout_redirect_uris: [SIGNED_OUT],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_basic',
        backchannel_logout_uri: `${APP_ORIGIN}${BACKCHANNEL_PATH}`,
      },
      {
        client_id: PARTNER_ID,
        client_name: 'E2E Partner',
        third_party: true,
        client_secret: SECRET,
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ]),
  );
  return { OIDC_CLIENTS_FILE: file, LOGIN_ADDRESS_LIMIT: '10000' };
});
const { withPage } = e2e;

/** The relying party's view of the issuer, through its discovery. */
async function relyingParty(clientId = CLIENT_ID): Promise<client.Configuration> {
  return client.discovery(
    new URL(e2e.server.url),
    clientId,
    { id_token_signed_response_alg: 'EdDSA' },
    client.ClientSecretBasic(SECRET),
    { execute: [client.allowInsecureRequests] },
  );
}

interface Started {
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

/** An authorization request as the relying party builds it (PKCE S256, state, nonce). */
async function start(config: client.Configuration, extra: Record<string, string> = {}): Promise<Started> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}

/** Goes to the address and waits until the provider sends the browser back to the relying party. */
async function backAtApp(page: Page, url: URL | string, act?: () => Promise<void>): Promise<URL> {
  // Still at the app from an earlier flow, the wait below would end at once.
  if (new URL(page.url()).origin === APP_ORIGIN) await page.goto('about:blank');
  const arrived = page.waitForURL((address) => address.origin === APP_ORIGIN);
  await page.goto(String(url));
  await act?.();
  await arrived;
  return new URL(page.url());
}

async function signInWithPassword(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Ada signs in by password on acme's sign-in screen for a new request of the relying party. */
async function signInAtApp(
  page: Page,
  config: client.Configuration,
  extra: Record<string, string> = {},
): Promise<{ started: Started; back: URL }> {
  const started = await start(config, { team: 'acme', ...extra });
  const back = await backAtApp(page, started.url, async () => {
    await page.waitForURL((address) => address.pathname === '/login/acme');
    await signInWithPassword(page, 'ada@acme.test');
  });
  return { started, back };
}

/** The id token's `auth_time` of a code flow's answer. */
async function authTimeOf(config: client.Configuration, back: URL, started: Started): Promise<number> {
  const authTime = (await grant(config, back, started)).claims()?.auth_time;
  assert.equal(typeof authTime, 'number');
  return authTime!;
}

/** An OAuth error answer of the given code, as openid-client reports it. */
const oauthError = (code: string) => (error: unknown) => (error as { error?: string }).error === code;

const grant = (config: client.Configuration, back: URL, started: Started, verifier = started.verifier) =>
  client.authorizationCodeGrant(config, back, {
    pkceCodeVerifier: verifier,
    expectedState: started.state,
    expectedNonce: started.nonce,
  });

describe('the OpenID Provider with a relying party and the portal’s screens', () => {
  it('signs in by password through the portal: tokens verified, userinfo, prompt=none, code replay', async () => {
    await withPage(async ({ page }) => {
      const config = await relyingParty();
      const started = await start(config, { team: 'acme' });
      const back = await backAtApp(page, started.url, async () => {
        await page.waitForURL((address) => address.pathname === '/login/acme');
        await screenshot(page, 'e2e/oidc-provider', 'sign-in');
        await signInWithPassword(page, 'ada@acme.test');
      });
      assert.equal(back.searchParams.get('iss'), e2e.server.url);
      const tokens = await grant(config, back, started);
      const claims = tokens.claims();
      assert.ok(claims);
      assert.equal(claims.email, 'ada@acme.test');
      assert.equal(claims.team, 'acme');
      assert.deepEqual(claims.amr, ['pwd']);
      const jwks = createRemoteJWKSet(new URL(`${e2e.server.url}/.well-known/jwks`));
      await jwtVerify(tokens.id_token!, jwks, { issuer: e2e.server.url, audience: CLIENT_ID });
      const access = await jwtVerify(tokens.access_token, jwks, {
        issuer: e2e.server.url,
        audience: 'acct-api',
        typ: 'at+jwt',
      });
      assert.equal(access.payload.sub, claims.sub);
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      assert.equal(userinfo.email, 'ada@acme.test');
      assert.equal(userinfo.team, 'acme');

      // Signed in: prompt=none answers at once, with a code.
      const silent = await start(config, { prompt: 'none' });
      const silentBack = await backAtApp(page, silent.url);
      assert.ok(silentBack.searchParams.get('code'));
      assert.ok((await grant(config, silentBack, silent)).access_token);

      // The code is used once; its replay also revokes what it gave (so it comes last here).
      await assert.rejects(grant(config, back, started), oauthError('invalid_grant'));
    });
  });

  it('signs out from the app with id_token_hint: back at the app with state, and signed out of the portal', async () => {
    await withPage(async ({ page }) => {
      const config = await relyingParty();
      const { started, back } = await signInAtApp(page, config);
      const tokens = await grant(config, back, started);
      const signOut = client.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: SIGNED_OUT,
        state: 'signed-out-state',
      });
      const landed = await backAtApp(page, signOut);
      assert.equal(`${landed.origin}${landed.pathname}`, SIGNED_OUT);
      assert.equal(landed.searchParams.get('state'), 'signed-out-state');
      // The next sign-in asks again: the portal session ended with the provider's.
      await page.goto(String((await start(config, { team: 'acme' })).url));
      await page.waitForURL((address) => address.pathname === '/login/acme');
    });
  });

  it('the portal header’s Sign out sends the app a logout token; its refresh token is refused', async () => {
    await withPage(async ({ page }) => {
      const config = await relyingParty();
      const offline = { scope: 'openid email offline_access', prompt: 'consent' };
      const { started, back } = await signInAtApp(page, config, offline);
      const tokens = await grant(config, back, started);
      const claims = tokens.claims();
      const sid = claims?.sid;
      assert.equal(typeof sid, 'string', 'the id token has a sid');
      assert.ok(tokens.refresh_token, 'a refresh token');

      await page.goto(`${e2e.server.url}/manage`);
      await page.locator('acct-portal .avatar-button').click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(`${e2e.server.url}/login/team`);

      const payload = await logoutTokenFor(logoutTokens, sid, e2e.server.url, CLIENT_ID);
      assert.equal(payload.sub, claims?.sub);
      assert.equal(payload.nonce, undefined);
      await assert.rejects(
        client.refreshTokenGrant(config, tokens.refresh_token),
        oauthError('invalid_grant'),
      );
    });
  });

  it('asks before an app’s sign-out without a hint; “Sign out” goes back to the app signed out', async () => {
    await withPage(async ({ page }) => {
      const config = await relyingParty();
      await signInAtApp(page, config);
      const signOut = client.buildEndSessionUrl(config, {
        post_logout_redirect_uri: SIGNED_OUT,
        state: 'asked-state',
      });
      const landed = await backAtApp(page, signOut, async () => {
        await page.getByRole('heading', { name: 'Do you want to sign out?' }).waitFor();
        await page.getByRole('button', { name: 'Stay signed in' }).waitFor();
        await screenshot(page, 'e2e/oidc-provider', 'sign-out-question');
        // The page's policy lets the form post and the answer go back to the app.
        await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      });
      assert.equal(`${landed.origin}${landed.pathname}`, SIGNED_OUT);
      assert.equal(landed.searchParams.get('state'), 'asked-state');
      await page.goto(String((await start(config, { team: 'acme' })).url));
      await page.waitForURL((address) => address.pathname === '/login/acme');
    });
  });

  it('answers prompt=none with login_required when signed out', async () => {
    await withPage(async ({ page }) => {
      const config = await relyingParty();
      const started = await start(config, { prompt: 'none' });
      const back = await backAtApp(page, started.url);
      assert.equal(back.searchParams.get('error'), 'login_required');
      assert.equal(back.searchParams.get('code'), null);
      await assert.rejects(grant(config, back, started), oauthError('login_required'));
    });
  });

  it('refuses an unknown redirect URI without redirecting, and a request without PKCE', async () => {
    // The refusal page itself is a 400, which Chromium reports on the console.
    await withPage(
      async ({ page }) => {
        const config = await relyingParty();
        const started = await start(config, {
          redirect_uri: 'https://evil.example.test/callback',
          ui_locales: 'fr',
        });
        const response = await page.goto(String(started.url));
        assert.equal(response?.status(), 400);
        assert.equal(new URL(page.url()).origin, e2e.server.url);
        // In the language the app asked for: what happened, its code, and what to do.
        await page.getByRole('heading', { name: 'Cette connexion ne peut pas aboutir' }).waitFor();
        await page.getByText('Revenez à l’application et essayez de vous reconnecter.').waitFor();
        await page.getByText('Code d’erreur : invalid_redirect_uri').waitFor();
        assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
        await screenshot(page, 'e2e/oidc-provider', 'bad-redirect');

        const noPkce = new URL(started.url);
        noPkce.searchParams.set('redirect_uri', REDIRECT);
        noPkce.searchParams.delete('ui_locales');
        noPkce.searchParams.delete('code_challenge');
        noPkce.searchParams.delete('code_challenge_method');
        const back = await backAtApp(page, noPkce);
        assert.equal(back.searchParams.get('error'), 'invalid_request');
      },
      [/status of 400/],
    );
  });

  it('pre-fills the e-mail from login_hint, through the team step, and the user may change it', async () => {
    await withPage(async ({ page }) => {
      const config = await relyingParty();
      const started = await start(config, { login_hint: 'bob@acme.test' });
      const back = await backAtApp(page, started.url, async () => {
        await page.waitForURL((address) => address.pathname === '/login/team');
        await page.getByLabel('Team name').fill('acme');
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.waitForURL((address) => address.pathname === '/login/acme');
        const email = page.getByLabel('Email');
        assert.equal(await email.inputValue(), 'bob@acme.test');
        await screenshot(page, 'e2e/oidc-provider', 'login-hint');
        // Only a suggestion: the user signs in with another address.
        await signInWithPassword(page, 'ada@acme.test');
      });
      const claims = (await grant(config, back, started)).claims();
      assert.equal(claims?.email, 'ada@acme.test');
    });
  });

  it('shows the sign-in screen in the language of ui_locales', async () => {
    await withPage(async ({ page }) => {
      const config = await relyingParty();
      const started = await start(config, { team: 'acme', ui_locales: 'tlh de-AT en' });
      const back = await backAtApp(page, started.url, async () => {
        await page.getByRole('heading', { level: 1, name: /^Bei .+ anmelden$/ }).waitFor();
        await screenshot(page, 'e2e/oidc-provider', 'ui-locales-de');
        await page.getByLabel('E-Mail-Adresse').fill('ada@acme.test');
        await page.getByLabel('Passwort', { exact: true }).fill(DEMO_PASSWORD);
        await page.getByRole('button', { name: 'Weiter' }).click();
      });
      assert.ok(back.searchParams.get('code'));
    });
  });

  it('signs a signed-in user in again for prompt=login and max_age=0: a fresh auth_time', async () => {
    await withPage(async ({ page }) => {
      const config = await relyingParty();
      const { started: first, back: firstBack } = await signInAtApp(page, config);
      let authTime = await authTimeOf(config, firstBack, first);

      const freshness: Array<Record<string, string>> = [{ prompt: 'login' }, { max_age: '0' }];
      for (const fresh of freshness) {
        // auth_time counts seconds: the new sign-in is in a later one.
        await new Promise((resolve) => setTimeout(resolve, 1100));
        const started = await start(config, fresh);
        const back = await backAtApp(page, started.url, async () => {
          // The portal session is live, yet the sign-in screen stays, with the user's e-mail.
          await page.waitForURL((address) => address.pathname === '/login/acme');
          const email = page.getByLabel('Email');
          await email.waitFor();
          assert.equal(await email.inputValue(), 'ada@acme.test');
          if (fresh.prompt) await screenshot(page, 'e2e/oidc-provider', 'sign-in-again');
          await page.getByLabel('Password').fill(DEMO_PASSWORD);
          await page.getByRole('button', { name: 'Continue' }).click();
        });
        assert.ok(back.searchParams.get('code'), `${JSON.stringify(fresh)}: ${back.href}`);
        const renewed = await authTimeOf(config, back, started);
        assert.ok(renewed > authTime, `${JSON.stringify(fresh)}: ${renewed} after ${authTime}`);
        authTime = renewed;
      }
    });
  });

  it('asks consent for a third-party app, remembers it, and asks again once removed in Connected apps', async () => {
    await withPage(async ({ page }) => {
      const config = await relyingParty(PARTNER_ID);
      const question = page.getByRole('heading', {
        level: 1,
        name: 'Allow E2E Partner to use your account?',
      });
      const started = await start(config, {
        team: 'acme',
        scope: 'openid profile email offline_access',
        prompt: 'consent',
      });
      const back = await backAtApp(page, started.url, async () => {
        await page.waitForURL((address) => address.pathname === '/login/acme');
        await signInWithPassword(page, 'ada@acme.test');
        await question.waitFor();
        for (const text of [
          'E2E Partner wants to sign you in with your account at Acme.',
          'E2E Partner will be able to:',
          'See your email address',
          'Keep you signed in',
        ])
          await page.getByText(text).waitFor();
        await screenshot(page, 'e2e/oidc-provider', 'consent');
        await page.getByRole('button', { name: 'Allow', exact: true }).click();
      });
      const tokens = await grant(config, back, started);
      assert.equal(tokens.claims()?.email, 'ada@acme.test');
      assert.ok(tokens.refresh_token);

      // Remembered: the next sign-in goes straight back to the app.
      const again = await start(config);
      const againBack = await backAtApp(page, again.url);
      assert.ok((await grant(config, againBack, again)).access_token);

      await page.goto(`${e2e.server.url}/manage/apps`);
      await page.getByRole('button', { name: 'Remove access for E2E Partner' }).click();
      await page
        .getByRole('alertdialog', { name: 'Remove access for E2E Partner?' })
        .getByRole('button', { name: 'Remove access' })
        .click();
      await page
        .getByText('No apps have access to your account.')
        .or(page.getByText('Access removed for E2E Partner'))
        .first()
        .waitFor();
      await page
        .getByRole('button', { name: 'Remove access for E2E Partner' })
        .waitFor({ state: 'detached' });
      await assert.rejects(
        client.refreshTokenGrant(config, tokens.refresh_token!),
        oauthError('invalid_grant'),
      );

      // Removed: the app asks again.
      await page.goto(String((await start(config)).url));
      await question.waitFor();
    });
  });

  it('refuses a wrong verifier; rotates refresh tokens; introspects and revokes', async () => {
    await withPage(async ({ page }) => {
      const config = await relyingParty();
      /** The first time through the portal's sign-in; then the portal session answers at once. */
      const signIn = async (extra: Record<string, string>, withPassword: boolean) => {
        const started = await start(config, extra);
        const back = await backAtApp(page, started.url, async () => {
          if (!withPassword) return;
          await page.waitForURL((address) => address.pathname === '/login/acme');
          await signInWithPassword(page, 'ada@acme.test');
        });
        return { started, back };
      };
      const first = await signIn({ team: 'acme' }, true);
      await assert.rejects(
        grant(config, first.back, first.started, client.randomPKCECodeVerifier()),
        oauthError('invalid_grant'),
      );

      const offline = await signIn({ scope: 'openid email offline_access', prompt: 'consent' }, false);
      const tokens = await grant(config, offline.back, offline.started);
      assert.ok(tokens.refresh_token, 'a refresh token');
      const rotated = await client.refreshTokenGrant(config, tokens.refresh_token);
      assert.ok(rotated.refresh_token && rotated.refresh_token !== tokens.refresh_token);

      const live = await client.tokenIntrospection(config, rotated.refresh_token);
      assert.equal(live.active, true);
      assert.equal(live.client_id, CLIENT_ID);
      await client.tokenRevocation(config, rotated.refresh_token);
      assert.equal((await client.tokenIntrospection(config, rotated.refresh_token)).active, false);
      await assert.rejects(
        client.refreshTokenGrant(config, rotated.refresh_token),
        oauthError('invalid_grant'),
      );
    });
  });
});
