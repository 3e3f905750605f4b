import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, signInContext, until, useE2E } from '../support/browser';
import { sessionFor } from '../support/test-server';

const e2e = useE2E();
const { withPage } = e2e;

/** At the stand-in provider's page: type the account and continue. */
async function atProvider(page: Page, account: string) {
  await page.getByLabel('Account').fill(account);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The text of the element that has focus, looking inside shadow roots. */
function focusedText(page: Page) {
  return page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.textContent;
  });
}

/** Answer the disconnect question, after checking it names the provider and the account. */
async function confirmDisconnect(page: Page, provider: string, username: string) {
  const dialog = page.getByRole('alertdialog', { name: `Disconnect your ${provider} account?` });
  await dialog.getByText(username, { exact: false }).waitFor();
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function providerSignIn(page: Page, team: string, button: string, account: string) {
  await page.goto(`${e2e.server.url}/login/${team}`);
  await page.getByRole('button', { name: button }).click();
  await atProvider(page, account);
}

describe('external providers, end to end', () => {
  it('signs ada in to acme with Google', async () => {
    await withPage(async ({ page }) => {
      await providerSignIn(page, 'acme', 'Sign in with Google', 'ada');
      await page.waitForURL(`${e2e.server.url}/manage`);
      await page.locator('acct-portal .header-name').getByText('Ada Lovelace').waitFor();
    });
  });

  it('signs dan in to umbrella with Microsoft, keeping ReturnUrl', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/login/umbrella?ReturnUrl=%2Fmanage%2Fqr`);
      await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
      await atProvider(page, 'dan');
      await page.waitForURL(`${e2e.server.url}/manage/qr`);
      await page.locator('acct-portal .header-name').getByText('Dan Okafor').waitFor();
    });
  });

  it('shows each Error code from a real callback', async () => {
    const cases: Array<[string, string, string, string]> = [
      ['acme', 'Sign in with Google', 'locked', 'This account is locked. Try again later.'],
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
      await signInContext(page.context(), (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
      await page.goto(`${e2e.server.url}/manage`);
      const panel = page.locator('acct-portal section').filter({ hasText: 'Third-party accounts' });
      await panel.getByText('Connected as ada@acme.test').waitFor();
      await panel.getByRole('button', { name: 'Connect Microsoft' }).click();
      await atProvider(page, 'ada');
      await page.waitForURL(`${e2e.server.url}/manage`);
      await panel.getByRole('button', { name: 'Disconnect Microsoft' }).waitFor();
      assert.equal(await panel.getByText('Connected as ada@acme.test').count(), 2);
      await screenshot(page, 'e2e/providers', 'connected');
      await panel.getByRole('button', { name: 'Disconnect Microsoft' }).click();
      await confirmDisconnect(page, 'Microsoft', 'ada@acme.test');
      await page.getByText('Microsoft account removed').waitFor();
      await panel.getByRole('button', { name: 'Connect Microsoft' }).waitFor();
      // Focus goes to what took the Disconnect button's place, not to the page (once the options reload).
      await page.waitForFunction(() => {
        let active = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active?.getAttribute('aria-label') === 'Connect Microsoft';
      });
    });
  });

  it("connects ada's Apple account (its stand-in answers by form_post), then disconnects it", async () => {
    await withPage(async ({ page }) => {
      await signInContext(page.context(), (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
      await page.goto(`${e2e.server.url}/manage`);
      const panel = page.getByRole('region', { name: 'Third-party accounts' });
      const row = panel.getByRole('listitem').filter({ hasText: 'Apple' });
      await row.getByText('Not connected').waitFor();
      await panel.getByRole('button', { name: 'Connect Apple' }).click();
      await atProvider(page, 'ada');
      await page.waitForURL(`${e2e.server.url}/manage`);
      await row.getByText('Connected as ada@acme.test').waitFor();
      await panel.getByRole('button', { name: 'Disconnect Apple' }).click();
      await confirmDisconnect(page, 'Apple', 'ada@acme.test');
      await page.getByText('Apple account removed').waitFor();
      await row.getByText('Not connected').waitFor();
    });
  });

  it("connects ada's Auth0 (the team's Acme SSO), then disconnects it", async () => {
    await withPage(async ({ page }) => {
      await signInContext(page.context(), (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
      await page.goto(`${e2e.server.url}/manage`);
      const panel = page.getByRole('region', { name: 'Third-party accounts' });
      await panel.getByRole('button', { name: 'Connect Acme SSO' }).click();
      await atProvider(page, 'ada');
      await page.waitForURL(`${e2e.server.url}/manage`);
      await panel.getByRole('button', { name: 'Disconnect Acme SSO' }).waitFor();
      const row = panel.getByRole('listitem').filter({ hasText: 'Acme SSO' });
      await row.getByText('Connected as ada@acme.test').waitFor();
      await panel.getByRole('button', { name: 'Disconnect Acme SSO' }).click();
      await confirmDisconnect(page, 'Acme SSO', 'ada@acme.test');
      await page.getByText('Acme SSO account removed').waitFor();
      await panel.getByRole('button', { name: 'Connect Acme SSO' }).waitFor();
      await row.getByText('Not connected').waitFor();
    });
  });

  it('shows no third-party panel to a team without providers (carol at globex)', async () => {
    await withPage(async ({ page }) => {
      await signInContext(
        page.context(),
        (await sessionFor(e2e.server.server.app, 'carol@globex.test')).token,
      );
      await page.goto(`${e2e.server.url}/manage`);
      await page
        .getByRole('region', { name: 'Personal info' })
        .getByText('Globex', { exact: true })
        .waitFor();
      // The password panel and the third-party panel render from the same sign-in options answer.
      await page.getByRole('button', { name: 'Change password' }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(await page.getByRole('region', { name: 'Third-party accounts' }).count(), 0);
      assert.equal(await page.getByText('Third-party accounts').count(), 0);
    });
  });

  it('keeps bob from removing his only sign-in option until he sets a password', async () => {
    await withPage(async ({ page }) => {
      await signInContext(page.context(), (await sessionFor(e2e.server.server.app, 'bob@acme.test')).token);
      await page.goto(`${e2e.server.url}/manage`);
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
      await confirmDisconnect(page, 'Google', 'bob@acme.test');
      await page.getByText('Google account removed').waitFor();
      await panel.getByRole('button', { name: 'Connect Google' }).waitFor();
    });
  });

  it('keeps the account connected when the question is cancelled (Cancel, Escape)', async () => {
    await withPage(async ({ page }) => {
      await signInContext(page.context(), (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
      await page.goto(`${e2e.server.url}/manage`);
      const panel = page.getByRole('region', { name: 'Third-party accounts' });
      const deletes: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'DELETE') deletes.push(request.url());
      });
      const dialog = page.getByRole('alertdialog', { name: 'Disconnect your Google account?' });
      await panel.getByRole('button', { name: 'Disconnect Google' }).click();
      await dialog.getByText('ada@acme.test', { exact: false }).waitFor();
      await screenshot(page, 'e2e/providers', 'disconnect-question');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await focusedText(page), 'Disconnect');
      await panel.getByRole('button', { name: 'Disconnect Google' }).click();
      await dialog.waitFor();
      assert.equal(await focusedText(page), 'Cancel', 'the safe choice has focus');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await focusedText(page), 'Disconnect');
      await page.reload();
      await panel.getByText('Connected as ada@acme.test').waitFor();
      await panel.getByRole('button', { name: 'Disconnect Google' }).waitFor();
      assert.deepEqual(deletes, []);
    });
  });
});

describe('provider sign-in from a page on another origin', () => {
  it("goes to the provider under the partner page's own CSP and comes back signed in", async () => {
    // Every CSP violation is a console error (watched across the navigations) and fails the test.
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.partnerUrl}/partner.html`);
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      await atProvider(page, 'ada');
      await page.waitForURL(`${e2e.server.partnerUrl}/partner.html`);
      await page.getByText('You are signed in as ada@acme.test.').waitFor();
      await screenshot(page, 'e2e/providers', 'partner-back-signed-in');
    });
  });

  it('says so, at the buttons, when the start fails', async () => {
    await withPage(
      async ({ page }, context) => {
        await page.goto(`${e2e.server.partnerUrl}/partner.html`);
        const google = page.getByRole('button', { name: 'Sign in with Google' });
        await google.waitFor();
        await context.setOffline(true);
        await google.click();
        const alert = page.getByRole('alert').filter({ hasText: 'Signing in with Google could not start.' });
        await alert.waitFor();
        // The screen moves the focus to it once it has rendered.
        await until(
          () => alert.evaluate((node) => node === (node.getRootNode() as ShadowRoot).activeElement),
          'focus on the alert',
        );
        assert.equal(await google.isEnabled(), true);
        await screenshot(page, 'e2e/providers', 'partner-start-failed');
        await context.setOffline(false);
      },
      [/ERR_INTERNET_DISCONNECTED/],
    );
  });
});
