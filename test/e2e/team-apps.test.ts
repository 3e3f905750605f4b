/**
 * The team apps screen end to end: ada (an owner of acme) registers a single-page app through the
 * screen, and openid-client signs a member of acme in with it (code + PKCE, no secret) through the
 * portal's sign-in; then a web app's new secret, its back-channel logout URL (the portal's Sign out
 * then sends the app a logout token), turning an app off and on, and deleting it, each through the
 * screen and its confirmation.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import * as client from 'openid-client';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { screenshot, signInContext, until, useE2E } from '../support/browser';
import { BACKCHANNEL_PATH, logoutTokenFor, takeLogoutToken } from '../support/logout-tokens';
import { sessionFor } from '../support/test-server';

/** The app's own page: any address answers a blank page; its back-channel logout takes tokens. */
let app: Server | undefined;
/** The logout tokens the app was sent at its back-channel logout URL. */
const logoutTokens: string[] = [];
let APP_ORIGIN = '';
after(async () => {
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
  return { LOGIN_ADDRESS_LIMIT: '10000' };
});
const { withPage } = e2e;

const REDIRECT = () => `${APP_ORIGIN}/callback`;
const dialog = (page: Page) => page.locator('acct-portal dialog[open]');
const row = (page: Page, name: string): Locator =>
  page.locator('acct-portal li.member', { has: page.locator('.member-name', { hasText: name }) });

async function openApps(page: Page) {
  await signInContext(page.context(), (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
  await page.goto(`${e2e.server.url}/manage/team/apps`);
  await page.getByRole('heading', { level: 1, name: 'Team apps' }).waitFor();
}

/** Registers an app through the screen's dialog; answers the dialog shown after it. */
async function register(page: Page, name: string, kind: RegExp, redirect?: string) {
  await page.getByRole('button', { name: 'Register an app' }).click();
  const form = dialog(page);
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('radio', { name: kind }).check();
  if (redirect) await form.getByRole('textbox', { name: 'Redirect address 1' }).fill(redirect);
  await form.getByRole('button', { name: 'Register', exact: true }).click();
  return page.locator('acct-portal dialog[open]', { hasText: 'Client ID' });
}

/** The value of a read-only field of the dialog shown. */
const valueOf = (shown: Locator, label: string) => shown.getByRole('textbox', { name: label }).inputValue();

/** The label (or text) of the element that has focus, inside the shadow roots. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return (active?.getAttribute('aria-label') ?? active?.textContent ?? '').trim();
  });
}

async function relyingParty(clientId: string, auth = client.None()): Promise<client.Configuration> {
  return client.discovery(
    new URL(e2e.server.url),
    clientId,
    { id_token_signed_response_alg: 'EdDSA' },
    auth,
    {
      execute: [client.allowInsecureRequests],
    },
  );
}

async function authorizationUrl(config: client.Configuration) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT(),
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    team: 'acme',
  });
  return { url, verifier, state, nonce };
}

/** Ada signs in to the app through the portal's sign-in; the app's tokens for the code it gets. */
async function signInAtApp(page: Page, config: client.Configuration) {
  const started = await authorizationUrl(config);
  const arrived = page.waitForURL((address) => address.origin === APP_ORIGIN);
  await page.goto(String(started.url));
  await page.waitForURL((address) => address.pathname === '/login/acme');
  await page.getByLabel('Email').fill('ada@acme.test');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await arrived;
  return client.authorizationCodeGrant(config, new URL(page.url()), {
    pkceCodeVerifier: started.verifier,
    expectedState: started.state,
    expectedNonce: started.nonce,
  });
}

describe('the team apps screen', () => {
  let spaId = '';

  it('registers a single-page app; a member of acme signs in with it (code + PKCE)', async () => {
    await withPage(async ({ page }) => {
      await openApps(page);
      const shown = await register(page, 'E2E Single Page', /^Single-page app/, REDIRECT());
      await shown.getByText('This app signs in with PKCE and has no secret').waitFor();
      await screenshot(page, 'e2e/team-apps', 'public-app-registered');
      spaId = await valueOf(shown, 'Client ID');
      assert.match(spaId, /\S{8,}/);
      assert.equal(await shown.getByRole('textbox', { name: 'Client secret' }).count(), 0);
      await shown.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });
      // Focus back on the screen, not lost to the page's start.
      await until(async () => (await focused(page)) === 'Register an app', 'focus back on Register an app');
      const spa = row(page, 'E2E Single Page');
      await spa.getByText('Single-page app').waitFor();
      await spa.getByText(spaId).waitFor();
      await spa.getByText('On', { exact: true }).waitFor();
      await spa.getByText('Never').waitFor();
    });

    await withPage(async ({ page }) => {
      const config = await relyingParty(spaId);
      const tokens = await signInAtApp(page, config);
      assert.equal(tokens.claims()?.email, 'ada@acme.test');
      assert.equal(tokens.claims()?.aud, spaId);
    });

    // The list says it was used.
    await withPage(async ({ page }) => {
      await openApps(page);
      await row(page, 'E2E Single Page')
        .getByText(/minute|now/)
        .waitFor();
    });
  });

  it('a web app’s secret shows once; a new one after confirming replaces it', async () => {
    await withPage(async ({ page }) => {
      await openApps(page);
      const shown = await register(page, 'E2E Web', /^Web app/, REDIRECT());
      await shown.getByText(/you won’t see it again/).waitFor();
      const first = await valueOf(shown, 'Client secret');
      await shown.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });

      await row(page, 'E2E Web').getByRole('button', { name: 'New secret for E2E Web' }).click();
      const ask = page.getByRole('alertdialog', { name: 'New secret for E2E Web?' });
      await ask.getByText('The current secret of E2E Web stops working at once').waitFor();
      // Cancel changes nothing.
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await ask.waitFor({ state: 'detached' });
      await row(page, 'E2E Web').getByRole('button', { name: 'New secret for E2E Web' }).click();
      await ask.getByRole('button', { name: 'Make a new secret' }).click();
      const again = page.locator('acct-portal dialog[open]', { hasText: 'Client secret of E2E Web' });
      await again.getByText(/you won’t see it again/).waitFor();
      const second = await valueOf(again, 'Client secret');
      assert.notEqual(second, first);
      await again.getByRole('button', { name: 'Done' }).click();
      await again.waitFor({ state: 'detached' });
      // Closing gives focus back to the row's button that asked for it, once the list has rendered
      // without the dialog: until then focus is on the element itself.
      await until(
        async () => (await focused(page)) === 'New secret for E2E Web',
        'focus back on the row’s button',
      );

      // On a 320 px phone: the list and the register form fit, nothing scrolls sideways.
      await page.setViewportSize({ width: 320, height: 700 });
      const sideways = () => page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
      await screenshot(page, 'e2e/team-apps', 'list-320');
      assert.equal(await sideways(), false);
      await page.getByRole('button', { name: 'Register an app' }).click();
      await dialog(page).getByRole('button', { name: 'Register', exact: true }).click();
      await dialog(page).getByText('Enter a name for the app.').waitFor();
      await screenshot(page, 'e2e/team-apps', 'register-320');
      assert.equal(await sideways(), false);
    });
  });

  it('a web app’s back-channel logout URL, set in its edit form, gets a logout token at Sign out', async () => {
    let clientId = '';
    let secret = '';
    await withPage(async ({ page }) => {
      await openApps(page);
      const shown = await register(page, 'E2E Logout', /^Web app/, REDIRECT());
      clientId = await valueOf(shown, 'Client ID');
      secret = await valueOf(shown, 'Client secret');
      await shown.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });

      const edit = async () => {
        await row(page, 'E2E Logout').getByRole('button', { name: 'Edit E2E Logout' }).click();
        return page.getByRole('dialog', { name: 'Edit E2E Logout' });
      };
      let form = await edit();
      const logoutUrl = form.getByRole('textbox', { name: 'Back-channel logout URL' });
      await form.getByText(/sends a logout token to this address/).waitFor();
      // Plain http to another machine: refused at the field.
      await logoutUrl.fill('http://logout.acme.test/backchannel');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText('Use https. Plain http is only for localhost.').waitFor();
      assert.equal(await logoutUrl.getAttribute('aria-invalid'), 'true');
      await screenshot(page, 'e2e/team-apps', 'logout-url-error');
      await logoutUrl.fill(`${APP_ORIGIN}${BACKCHANNEL_PATH}`);
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached' });
      await page.getByText('E2E Logout is saved').waitFor();
      // The form shows what the server kept.
      form = await edit();
      assert.equal(
        await form.getByRole('textbox', { name: 'Back-channel logout URL' }).inputValue(),
        `${APP_ORIGIN}${BACKCHANNEL_PATH}`,
      );
      await form.getByRole('button', { name: 'Cancel' }).click();
    });

    // A member signs in to the app, then signs out of the portal: the app hears of it.
    await withPage(async ({ page }) => {
      const config = await relyingParty(clientId, client.ClientSecretBasic(secret));
      const tokens = await signInAtApp(page, config);
      const claims = tokens.claims();
      const sid = claims?.sid;
      assert.equal(typeof sid, 'string', 'the id token has a sid');

      await page.goto(`${e2e.server.url}/manage`);
      await page.locator('acct-portal .avatar-button').click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(`${e2e.server.url}/login/team`);

      const payload = await logoutTokenFor(logoutTokens, sid, e2e.server.url, clientId);
      assert.equal(payload.sub, claims?.sub);
    });
  });

  it('turns the app off and on, then deletes it after confirming; its sign-ins stop', async () => {
    await withPage(async ({ page }) => {
      await openApps(page);
      const spa = row(page, 'E2E Single Page');
      await spa.getByRole('button', { name: 'Turn off E2E Single Page' }).click();
      const off = page.getByRole('alertdialog', { name: 'Turn off E2E Single Page?' });
      await off.getByRole('button', { name: 'Turn off', exact: true }).click();
      await spa.getByText('Off', { exact: true }).waitFor();
      await page.getByText('E2E Single Page is turned off').waitFor();
      await spa.getByRole('button', { name: 'Turn on E2E Single Page' }).click();
      await spa.getByText('On', { exact: true }).waitFor();

      await spa.getByRole('button', { name: 'Delete E2E Single Page' }).click();
      const ask = page.getByRole('alertdialog', { name: 'Delete E2E Single Page?' });
      await ask
        .getByText('Sign-ins with E2E Single Page stop and its tokens are revoked. This cannot be undone.')
        .waitFor();
      await ask.getByRole('button', { name: 'Delete', exact: true }).click();
      await spa.waitFor({ state: 'detached' });
      await page.getByText('E2E Single Page was deleted').waitFor();
    });
    // The provider no longer knows the client.
    const config = await relyingParty(spaId).catch(() => null);
    assert.ok(config);
    const refused = await fetch((await authorizationUrl(config)).url, { redirect: 'manual' });
    assert.equal(refused.status, 400);
  });
});
