import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  screenshot,
  signInContext,
  type PageWatch,
  withPage as withPageIn,
} from '../support/browser';
import { sessionFor, startTestServer, type TestServer } from '../support/test-server';

let browser: Browser;
let server: TestServer;
before(async () => {
  browser = await launchBrowser();
  server = await startTestServer();
});
after(async () => {
  await browser.close();
  await server.close();
});

const withPage = (test: (watch: PageWatch) => Promise<void>) => withPageIn(browser, test);

/** At the stand-in provider's page: type the account and continue. */
async function atProvider(page: Page, account: string) {
  await page.getByLabel('Account').fill(account);
  await page.getByRole('button', { name: 'Continue' }).click();
}

async function providerSignIn(page: Page, team: string, button: string, account: string) {
  await page.goto(`${server.url}/login/${team}`);
  await page.getByRole('button', { name: button }).click();
  await atProvider(page, account);
}

describe('external providers, end to end', () => {
  it('signs ada in to acme with Google', async () => {
    await withPage(async ({ page }) => {
      await providerSignIn(page, 'acme', 'Sign in with Google', 'ada');
      await page.waitForURL(`${server.url}/manage`);
      await page.locator('acct-portal .header-name').getByText('Ada Lovelace').waitFor();
    });
  });

  it('signs dan in to umbrella with Microsoft, keeping ReturnUrl', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${server.url}/login/umbrella?ReturnUrl=%2Fmanage%2Fqr`);
      await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
      await atProvider(page, 'dan');
      await page.waitForURL(`${server.url}/manage/qr`);
      await page.locator('acct-portal .header-name').getByText('Dan Okafor').waitFor();
    });
  });

  it('shows each Error code from a real callback', async () => {
    const cases: Array<[string, string, string, string]> = [
      ['acme', 'Sign in with Google', 'locked', 'Your account is locked. Try again later.'],
      ['acme', 'Sign in with Google', 'stranger', 'There is no account for this sign-in.'],
      ['acme', 'Sign in with Google', 'ada-other', 'An account already exists for this sign-in.'],
      [
        'umbrella',
        'Sign in with Microsoft',
        'eve',
        'This email account cannot be used to sign in to this team.',
      ],
    ];
    for (const [team, button, account, message] of cases) {
      await withPage(async ({ page }) => {
        await providerSignIn(page, team, button, account);
        await page.waitForURL((url) => url.pathname === `/login/${team}` && url.searchParams.has('Error'));
        await page.getByRole('alert').filter({ hasText: message }).waitFor();
      });
    }
  });

  it('connects Microsoft for ada, then disconnects it', async () => {
    await withPage(async ({ page }) => {
      await signInContext(page.context(), (await sessionFor(server.server.app, 'ada@acme.test')).token);
      await page.goto(`${server.url}/manage`);
      const panel = page.locator('acct-portal section').filter({ hasText: 'Third-party accounts' });
      await panel.getByText('Connected as ada@acme.test').waitFor();
      await panel.getByRole('button', { name: 'Connect Microsoft' }).click();
      await atProvider(page, 'ada');
      await page.waitForURL(`${server.url}/manage`);
      await panel.getByRole('button', { name: 'Disconnect Microsoft' }).waitFor();
      assert.equal(await panel.getByText('Connected as ada@acme.test').count(), 2);
      await screenshot(page, 'e2e/providers', 'connected');
      await panel.getByRole('button', { name: 'Disconnect Microsoft' }).click();
      await page.getByText('Microsoft account removed').waitFor();
      await panel.getByRole('button', { name: 'Connect Microsoft' }).waitFor();
    });
  });

  it('keeps bob from removing his only sign-in option until he sets a password', async () => {
    await withPage(async ({ page }) => {
      await signInContext(page.context(), (await sessionFor(server.server.app, 'bob@acme.test')).token);
      await page.goto(`${server.url}/manage`);
      const panel = page.locator('acct-portal section').filter({ hasText: 'Third-party accounts' });
      await panel.getByRole('button', { name: 'Disconnect Google' }).click();
      await page.getByText('You cannot remove your only sign-in option. Set a password first.').waitFor();
      await screenshot(page, 'e2e/providers', 'only-option');
      await page.getByRole('button', { name: 'Set password' }).click();
      const dialog = page.locator('acct-portal dialog[open]');
      await dialog.getByLabel('New password', { exact: true }).fill('bob sets a long password');
      await dialog.getByLabel('Confirm new password').fill('bob sets a long password');
      await dialog.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('Password set').waitFor();
      await panel.getByRole('button', { name: 'Disconnect Google' }).click();
      await page.getByText('Google account removed').waitFor();
      await panel.getByRole('button', { name: 'Connect Google' }).waitFor();
    });
  });
});
