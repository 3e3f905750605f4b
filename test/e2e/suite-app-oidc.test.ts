/**
 * The demo's suite app (second origin) as a real relying party: oidc-client-ts in the page signs in
 * through the portal's provider with the code flow and PKCE, shows the id token's claims and userinfo,
 * refreshes with its refresh token, and signs out through end_session.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { screenshot, signInFromTeamStep, useE2E } from '../support/browser';

const e2e = useE2E();

describe('the suite app signs in with OpenID Connect', () => {
  it('signs in through the portal, refreshes, and signs out through it', async () => {
    await e2e.withPage(async ({ page }) => {
      const suiteApp = `${e2e.server.partnerUrl}/suite-app.html`;
      const failures: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') failures.push(message.text());
      });
      await page.goto(suiteApp);
      const status = page.locator('#oidc-status');
      await page.getByRole('button', { name: 'Sign in with the portal' }).click();

      await signInFromTeamStep(page, 'acme', 'ada@acme.test', DEMO_PASSWORD);

      await page.waitForURL((address) => address.href === suiteApp);
      await status.filter({ hasText: 'Signed in through the portal.' }).waitFor();
      assert.equal(await page.locator('#oidc-email').textContent(), 'ada@acme.test');
      assert.equal(await page.locator('#oidc-team').textContent(), 'acme');
      assert.notEqual(await page.locator('#oidc-auth-time').textContent(), '');
      assert.equal(await page.locator('#oidc-amr').textContent(), 'pwd');
      await page.locator('#oidc-userinfo').filter({ hasText: 'ada@acme.test (acme)' }).waitFor();
      await screenshot(page, 'e2e/suite-app-oidc', 'signed-in');

      await page.getByRole('button', { name: 'Refresh the tokens' }).click();
      await status.filter({ hasText: /^Tokens refreshed at/ }).waitFor();
      await page.locator('#oidc-userinfo').filter({ hasText: 'ada@acme.test (acme)' }).waitFor();

      await page.getByRole('button', { name: 'Sign out of this app' }).click();
      await page.waitForURL((address) => address.href === suiteApp);
      await status.filter({ hasText: 'Signed out of this app and the portal.' }).waitFor();
      await page.getByRole('button', { name: 'Sign in with the portal' }).waitFor();
      // The portal session ended with the app's: the shared header offers Sign in.
      await page.locator('acct-header').getByRole('link', { name: 'Sign in' }).waitFor();
      assert.deepEqual(failures, []);
    });
  });
});
