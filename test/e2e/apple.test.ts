/** Sign in with Apple through its stand-in, which answers by form_post, end to end. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useE2E } from '../support/browser';
import { tokenFor } from '../support/test-server';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });
const { withPage } = e2e;

describe('Sign in with Apple', () => {
  it('signs ada in to acme, keeping ReturnUrl', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/login/acme?ReturnUrl=%2Fmanage%2Fqr`);
      await page.getByRole('button', { name: 'Sign in with Apple' }).click();
      await page.getByLabel('Account').fill('ada');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${e2e.server.url}/manage/qr`);
      await page.locator('acct-portal .header-name').getByText('Ada Lovelace').waitFor();
    });
  });

  it('is offered only where the team has it on', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/login/globex`);
      await page.getByRole('heading', { name: 'Sign in to Globex' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Sign in with Apple' }).count(), 0);
    });
    // acme's admin turns Apple off: its sign-in screen no longer offers it.
    const { accessToken } = await tokenFor(e2e.server.server.app, 'ada@acme.test');
    const response = await fetch(`${e2e.server.url}/api/team/login-options`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apple: false }),
    });
    assert.equal(response.status, 200, await response.text());
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/login/acme`);
      await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Sign in with Apple' }).count(), 0);
    });
  });
});
