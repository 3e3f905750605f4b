/**
 * The demo's server-side app (demo/server/server-app.ts, partner origin): a confidential client written
 * with openid-client. It signs in through the portal, and when the user signs out with the portal
 * header's Sign out, the portal's back-channel logout reaches it and its sign-in ends too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { screenshot, signInFromTeamStep, useE2E } from '../support/browser';

const e2e = useE2E();

describe('the demo’s server-side app', () => {
  it('signs in through the portal and hears by back-channel logout when the portal signs out', async () => {
    await e2e.withPage(async ({ page }) => {
      const home = `${e2e.server.partnerUrl}/server-app/`;
      const status = page.locator('#server-app-status');
      await page.goto(home);
      await page.getByRole('link', { name: 'Sign in with the portal' }).click();
      await signInFromTeamStep(page, 'acme', 'ada@acme.test', DEMO_PASSWORD);

      await page.waitForURL(home);
      await status.filter({ hasText: 'Signed in through the portal.' }).waitFor();
      await page.getByText('ada@acme.test', { exact: true }).waitFor();
      await screenshot(page, 'e2e/server-app-oidc', 'signed-in');

      await page.goto(`${e2e.server.url}/manage`);
      await page.locator('acct-portal .avatar-button').click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(`${e2e.server.url}/login/team`);

      // The logout token goes out once the sign-out has answered: the app may hear it a moment later.
      const deadline = Date.now() + 30_000;
      for (;;) {
        await page.goto(home);
        if ((await status.textContent())?.includes('(back-channel logout)')) break;
        assert.ok(Date.now() < deadline, 'the app was never told');
        await page.waitForTimeout(200);
      }
      await page.getByRole('link', { name: 'Sign in with the portal' }).waitFor();
      await screenshot(page, 'e2e/server-app-oidc', 'told-by-portal');
    });
  });
});
