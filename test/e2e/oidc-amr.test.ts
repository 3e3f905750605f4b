/**
 * How the user signed in reaches the app: a passkey sign-in and a two-step sign-in through the
 * portal's screens, for a relying party written with openid-client, give the id token's `amr`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { codeFieldFocused, useE2E } from '../support/browser';
import { tokenFor } from '../support/test-server';
import { appOf, codeFor, makeUser, memberWithApp } from '../support/two-step';
import { addVirtualAuthenticator, registerPasskey } from '../support/virtual-authenticator';

const CLIENT_ID = 'e2e-amr-app';
const SECRET = 'e2e-amr-app-secret-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'oidc-amr-'));
let site: Server | undefined;
let REDIRECT = '';
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

const e2e = useE2E(async () => {
  site = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>app</title>'),
  );
  await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
  REDIRECT = `http://127.0.0.1:${(site.address() as AddressInfo).port}/callback`;
  const file = join(dir, 'clients.json');
  writeFileSync(
    file,
    JSON.stringify([
      {
        client_id: CLIENT_ID,
        client_secret: SECRET,
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ]),
  );
  return { OIDC_CLIENTS_FILE: file, LOGIN_ADDRESS_LIMIT: '10000' };
});
const app = () => appOf(e2e.server);
let serial = 0;

/** The app's sign-in request for acme's screen; `signIn` acts there; the id token's `amr`. */
async function amrAfter(page: Page, signIn: () => Promise<void>): Promise<unknown> {
  const config = await client.discovery(
    new URL(e2e.server.url),
    CLIENT_ID,
    { id_token_signed_response_alg: 'EdDSA' },
    client.ClientSecretBasic(SECRET),
    { execute: [client.allowInsecureRequests] },
  );
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const address = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid email',
    team: 'acme',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const back = page.waitForURL((url) => url.href.startsWith(REDIRECT));
  await page.goto(address.href);
  await page.waitForURL((url) => url.pathname === '/login/acme');
  await signIn();
  await back;
  const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return tokens.claims()?.amr;
}

describe('the id token says how the user signed in', () => {
  it('a passkey: hwk (or swk) and mfa', async () => {
    await e2e.withPage(async ({ page }, context) => {
      const email = `amr-passkey-${++serial}@acme.test`;
      await makeUser(app(), email);
      const { accessToken } = await tokenFor(e2e.server.server.app, email);
      await page.goto(`${e2e.server.url}/login/acme`);
      await addVirtualAuthenticator(page);
      await registerPasskey(page, accessToken);
      await context.clearCookies();
      const amr = (await amrAfter(page, () =>
        page.getByRole('button', { name: 'Sign in with a passkey' }).click(),
      )) as string[];
      assert.ok(amr.includes('hwk') || amr.includes('swk'), JSON.stringify(amr));
      assert.ok(amr.includes('mfa'), JSON.stringify(amr));
    });
  });

  it('a password and the authenticator app: pwd, otp and mfa', async () => {
    await e2e.withPage(async ({ page }) => {
      const email = `amr-two-step-${++serial}@acme.test`;
      const { secret } = await memberWithApp(app(), email);
      const amr = (await amrAfter(page, async () => {
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(DEMO_PASSWORD);
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
        await codeFieldFocused(page);
        await page.keyboard.type(codeFor(app(), secret));
        await page.keyboard.press('Enter');
      })) as string[];
      assert.deepEqual([...amr].sort(), ['mfa', 'otp', 'pwd']);
    });
  });
});
