import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { failedResource, screenshot, signInContext, useE2E } from '../support/browser';
import { sessionFor } from '../support/test-server';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });
const { withPage } = e2e;

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${e2e.server.url}/login/acme?ReturnUrl=%2Fmanage`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${e2e.server.url}/manage`);
  await page.getByRole('heading', { name: 'Personal info' }).waitFor();
}

const dialog = (page: Page) => page.locator('acct-portal dialog[open]');
const personalInfo = (page: Page) => page.getByRole('region', { name: 'Personal info' });

describe('manage account', () => {
  it('sends a signed-out visitor of /manage to the team screen, coming back afterwards', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/manage`);
      await page.waitForURL((url) => url.pathname === '/login/team');
      assert.equal(new URL(page.url()).searchParams.get('ReturnUrl'), '/manage');
    });
  });

  it("shows ada's personal info", async () => {
    await withPage(async ({ page }) => {
      await signIn(page, 'ada@acme.test', DEMO_PASSWORD);
      const info = personalInfo(page);
      for (const text of ['ada@acme.test', 'Acme', 'Ada Lovelace', 'Owner'])
        await info.getByText(text, { exact: true }).waitFor();
      const created = await info.locator('time').textContent();
      assert.match(created ?? '', /^[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}$/);
      await screenshot(page, 'e2e/manage', 'personal-info');
    });
  });

  it('renames: 51 characters refused, 50 accepted, the panel and header follow without a reload', async () => {
    await withPage(async ({ page }) => {
      await signIn(page, 'ada@acme.test', DEMO_PASSWORD);
      const info = personalInfo(page);
      const rename = async (name: string) => {
        await page.getByRole('button', { name: 'Edit name' }).click();
        await dialog(page).getByLabel('Your name').fill(name);
        await dialog(page).getByRole('button', { name: 'Set name' }).click();
      };
      await rename('x'.repeat(51));
      await dialog(page).getByText('Your name cannot be more than 50 characters.').waitFor();
      await screenshot(page, 'e2e/manage', 'name-too-long');
      await dialog(page).getByRole('button', { name: 'Cancel' }).click();
      await dialog(page).waitFor({ state: 'detached' });
      await rename(`  ${'x'.repeat(50)}  `);
      await page.getByText('Name updated').waitFor();
      await info.getByText('x'.repeat(50), { exact: true }).waitFor();
      assert.equal(await info.getByText('Ada Lovelace', { exact: true }).count(), 0);
      await page.locator('acct-portal .header-name').getByText('x'.repeat(50)).waitFor();
      assert.equal(await page.locator('acct-portal .avatar-button .avatar').textContent(), 'X');
      await rename('Grace Hopper');
      await info.getByText('Grace Hopper', { exact: true }).waitFor();
      await page.locator('acct-portal .header-name').getByText('Grace Hopper', { exact: true }).waitFor();
      assert.equal(await page.locator('acct-portal .avatar-button .avatar').textContent(), 'GH');
      await rename('Ada Lovelace');
      await info.getByText('Ada Lovelace', { exact: true }).waitFor();
      await page.locator('acct-portal .header-name').getByText('Ada Lovelace').waitFor();
    });
  });

  it('changes the password: each refusal, then success, then signs in with the new one', async () => {
    await withPage(
      async ({ page }) => {
        await signIn(page, 'ada@acme.test', DEMO_PASSWORD);
        await page.getByRole('button', { name: 'Change password' }).click();
        const form = dialog(page);
        const fill = async (old: string, next: string, confirm: string) => {
          await form.getByLabel('Current password').fill(old);
          await form.getByLabel('New password', { exact: true }).fill(next);
          await form.getByLabel('Confirm new password').fill(confirm);
          await form.getByRole('button', { name: 'Change password' }).click();
        };
        await fill('wrong password', 'a new long password', 'a new long password');
        await form.getByText('The current password does not match.').waitFor();
        await fill(DEMO_PASSWORD, DEMO_PASSWORD, DEMO_PASSWORD);
        await form.getByText('The new password must be different from the current one.').waitFor();
        await fill(DEMO_PASSWORD, 'a new long password', 'another long password');
        // The reset screen's words for the same mistake.
        await form.getByText('The passwords do not match.').waitFor();
        await screenshot(page, 'e2e/manage', 'password-mismatch');
        await fill(DEMO_PASSWORD, 'a new long password', 'a new long password');
        // A password that existed was changed, not set.
        await page.getByText('Password changed', { exact: true }).waitFor();
        assert.equal(await page.getByText('Password set').count(), 0);
        await form.waitFor({ state: 'detached' });
        await screenshot(page, 'e2e/manage', 'password-changed-notice');
        await page.locator('acct-portal .avatar-button').click();
        await page.getByRole('menuitem', { name: 'Sign out' }).click();
        await page.waitForURL(`${e2e.server.url}/login/team`);
      },
      [failedResource(400)],
    );
    await withPage(
      async ({ page }) => {
        await page.goto(`${e2e.server.url}/login/acme`);
        await page.getByLabel('Email').fill('ada@acme.test');
        await page.getByLabel('Password').fill(DEMO_PASSWORD);
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByText('The email or password is incorrect.').waitFor();
        await page.getByLabel('Password').fill('a new long password');
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.waitForURL(`${e2e.server.url}/manage`);
      },
      [failedResource(401)],
    );
  });

  it('lets bob, who has no password, set one — and sign in with it', async () => {
    const bob = await e2e.server.server.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'bob@acme.test')
      .executeTakeFirstOrThrow();
    const session = await sessionFor(e2e.server.server.app, 'bob@acme.test');
    await withPage(async ({ page }) => {
      await signInContext(page.context(), session.token);
      await page.goto(`${e2e.server.url}/manage`);
      await page.getByRole('button', { name: 'Set password' }).click();
      const form = dialog(page);
      await form.getByRole('heading', { name: 'Set password' }).waitFor();
      assert.equal(await form.getByLabel('Current password').count(), 0);
      await form.getByLabel('New password', { exact: true }).fill('bob now has a password');
      await form.getByLabel('Confirm new password').fill('bob now has a password');
      await form.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('Password set', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Change password' }).waitFor();
    });
    // A fresh browser context: no session, only the new password.
    await withPage(async ({ page }) => {
      await signIn(page, 'bob@acme.test', 'bob now has a password');
      await personalInfo(page).getByText('bob@acme.test', { exact: true }).waitFor();
    });
    const row = await e2e.server.server.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', bob.id)
      .executeTakeFirstOrThrow();
    assert.notEqual(row.password_hash, null);
  });
});
