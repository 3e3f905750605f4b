/**
 * Changing the account's e-mail address from /manage/email against the real server and a real SMTP
 * loopback: the form refuses what it must at its fields, the link mailed to the new address confirms
 * the change (the old address no longer signs in), and the old address's undo link takes it back.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { failedResource, screenshot, useE2E } from '../support/browser';
import { TestSmtp } from '../support/smtp';

let smtp: TestSmtp | undefined;
const e2e = useE2E(async () => {
  smtp = await TestSmtp.start();
  return { SMTP_URL: smtp.url, LOGIN_ADDRESS_LIMIT: '10000' };
});
after(() => smtp?.close());
const inbox = () => smtp!;

async function signIn(page: Page, email: string, path: string) {
  await page.goto(`${e2e.server.url}/login/acme?${new URLSearchParams({ ReturnUrl: path })}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
}

const login = async (email: string) =>
  (
    await fetch(`${e2e.server.url}/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ teamName: 'acme', email, password: DEMO_PASSWORD }),
    })
  ).status;

describe('changing the e-mail address', () => {
  it('confirms with the link sent to the new address, and undoes with the old address’s link', async () => {
    await e2e.withPage(
      async ({ page }) => {
        await signIn(page, 'ada@acme.test', '/manage/email');
        const form = page.getByRole('region', { name: 'Change your email address' });
        await form.getByText('Your email address is ada@acme.test.').waitFor();
        const submit = form.getByRole('button', { name: 'Send confirmation link' });

        // Refusals at their fields: a malformed address (the screen) and a wrong password (the server). A
        // member's address is not refused here: that would tell who is on the team (the confirmation does).
        await form.getByLabel('New email address').fill('not-an-address');
        await submit.click();
        await form.getByText('Enter a valid email address.').waitFor();
        await form.getByLabel('New email address').fill('ada.new@example.test');
        await form.getByLabel('Current password').fill('not-the-password');
        await submit.click();
        await form.getByText('The password is not right.').waitFor();
        await screenshot(page, 'e2e/account', 'email-errors');

        await form.getByLabel('Current password').fill(DEMO_PASSWORD);
        await submit.click();
        await form.getByText('We sent a link to ada.new@example.test.', { exact: false }).waitFor();
        const confirmMail = await inbox().next('ada.new@example.test', /Confirm your new/);
        const noticeMail = await inbox().next('ada@acme.test', /being changed/);
        assert.ok(confirmMail.link && noticeMail.link);
        // Not changed until confirmed.
        assert.equal(await login('ada@acme.test'), 200);

        await page.goto(confirmMail.link);
        const confirm = page.getByRole('region', { name: 'Confirm your new email address' });
        await confirm.getByRole('button', { name: 'Confirm the new address' }).click();
        await confirm.getByText('Your email address is now ada.new@example.test.').waitFor();
        await screenshot(page, 'e2e/account', 'email-confirmed');
        assert.equal(await login('ada.new@example.test'), 200);
        assert.equal(await login('ada@acme.test'), 401);
        // The link works once: opened again, it says so at once, with nothing to click.
        await page.goto(confirmMail.link);
        await confirm.getByText('This link is no longer valid.', { exact: false }).waitFor();
        assert.equal(await confirm.getByRole('button').count(), 0);

        // The old address's link takes it back (and signs every session out), opened signed out: whoever
        // lost the address can no longer sign in with it.
        await page.context().clearCookies();
        await page.goto(noticeMail.link);
        const undo = page.getByRole('region', { name: 'Undo the email address change' });
        await undo.getByRole('button', { name: 'Undo the change' }).click();
        await undo.getByText('Your email address is ada@acme.test.', { exact: false }).waitFor();
        assert.equal(await login('ada@acme.test'), 200);
        assert.equal(await login('ada.new@example.test'), 401);
      },
      [failedResource(400), failedResource(409), failedResource(410)],
    );
  });

  it('shows the pending change after a reload, and cancels it: its link is then no longer valid', async () => {
    await e2e.withPage(
      async ({ page }) => {
        await signIn(page, 'ada@acme.test', '/manage/email');
        const form = page.getByRole('region', { name: 'Change your email address' });
        await form.getByLabel('New email address').fill('ada.later@example.test');
        await form.getByLabel('Current password').fill(DEMO_PASSWORD);
        await form.getByRole('button', { name: 'Send confirmation link' }).click();
        await form.getByText('We sent a link to ada.later@example.test.', { exact: false }).waitFor();
        const confirmMail = await inbox().next('ada.later@example.test', /Confirm your new/);
        await inbox().next('ada@acme.test', /being changed/);
        assert.ok(confirmMail.link);

        await page.reload();
        await form.getByText('A change to ada.later@example.test is waiting', { exact: false }).waitFor();
        await screenshot(page, 'e2e/account', 'email-pending');
        await form.getByRole('button', { name: 'Cancel the change' }).click();
        await page.getByText('The change is cancelled.', { exact: false }).first().waitFor();
        await form
          .getByText('A change to ada.later@example.test', { exact: false })
          .waitFor({ state: 'detached' });
        // No change waiting, judged once the screen has asked (the field shows before the answer).
        const asked = page.waitForResponse(
          (response) =>
            response.request().method() === 'GET' && new URL(response.url()).pathname === '/api/user/email',
        );
        await page.reload();
        await form.getByLabel('New email address').waitFor();
        await asked;
        assert.equal(await form.getByText('is waiting', { exact: false }).count(), 0);

        await page.goto(confirmMail.link);
        const confirm = page.getByRole('region', { name: 'Confirm your new email address' });
        await confirm.getByText('This link is no longer valid.', { exact: false }).waitFor();
        assert.equal(await login('ada@acme.test'), 200);
      },
      [failedResource(410)],
    );
  });
});
