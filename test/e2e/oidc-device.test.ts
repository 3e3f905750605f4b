/**
 * The device flow (RFC 8628) end to end: openid-client as the device (device authorization, polling),
 * Chromium as the user's browser at the verification page and through the portal's sign-in screens.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as client from 'openid-client';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { screenshot, signInFromTeamStep, useE2E } from '../support/browser';

const CLIENT_ID = 'e2e-tv-app';
const dir = mkdtempSync(join(tmpdir(), 'oidc-device-e2e-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const e2e = useE2E(async () => {
  const file = join(dir, 'clients.json');
  writeFileSync(
    file,
    JSON.stringify([
      {
        client_id: CLIENT_ID,
        client_name: 'Meeting-room screen',
        grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
        token_endpoint_auth_method: 'none',
      },
    ]),
  );
  return { OIDC_CLIENTS_FILE: file };
});
const { withPage } = e2e;

describe('the device flow with a device and the portal’s screens', () => {
  it('signs a user in on a device: code typed, portal sign-in, app confirmed, tokens polled', async () => {
    await withPage(async ({ page }) => {
      const device = await client.discovery(
        new URL(e2e.server.url),
        CLIENT_ID,
        { id_token_signed_response_alg: 'EdDSA' },
        client.None(),
        { execute: [client.allowInsecureRequests] },
      );
      const asked = await client.initiateDeviceAuthorization(device, { scope: 'openid profile email' });
      const polled = client.pollDeviceAuthorizationGrant(device, asked);

      await page.goto(asked.verification_uri);
      await page.getByRole('heading', { name: 'Sign in on a device' }).waitFor();
      await screenshot(page, 'e2e/oidc-device', 'code');
      const code = page.getByLabel('Code');
      await assert.doesNotReject(code.waitFor());
      // Focus starts in the field: typed as the device shows it, Enter sends it.
      await page.keyboard.type(asked.user_code);
      await page.keyboard.press('Enter');

      await page.getByRole('heading', { name: 'Sign in to Meeting-room screen?' }).waitFor();
      await page.getByText(asked.user_code, { exact: true }).waitFor();
      await screenshot(page, 'e2e/oidc-device', 'confirm');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();

      await signInFromTeamStep(page, 'acme', 'ada@acme.test', DEMO_PASSWORD);

      await page.getByRole('heading', { name: 'Your device is signed in' }).waitFor();
      await screenshot(page, 'e2e/oidc-device', 'done');
      const tokens = await polled;
      assert.equal(tokens.claims()?.email, 'ada@acme.test');
      const userinfo = await client.fetchUserInfo(device, tokens.access_token, tokens.claims()!.sub);
      assert.equal(userinfo.team, 'acme');
    });
  });
});
