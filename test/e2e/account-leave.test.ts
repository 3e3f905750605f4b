/**
 * Deleting one's own account from /manage/leave against the real server: the password is asked, the
 * question is asked once more (Cancel keeps everything), the team's last owner is refused, and a
 * deleted member can no longer sign in; the team's audit trail records it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { failedResource, screenshot, useE2E } from '../support/browser';
import { addUser } from '../support/team-admin';
import { tokenFor } from '../support/test-server';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });

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

/** A member of acme with the demo password, added for this test. */
async function member(email: string, name: string) {
  const server = e2e.server.server;
  const t = { db: server.db, clock: e2e.server.clock } as Parameters<typeof addUser>[0];
  const id = await addUser(t, { email, name, permissions: ['SPOKE'] });
  const hash = await server.app.services.hasher.hash(DEMO_PASSWORD);
  await server.db.kysely.updateTable('users').set({ password_hash: hash }).where('id', '=', id).execute();
}

describe('deleting the account', () => {
  it('asks for the password and once more, then deletes it: sign-in is refused afterwards', async () => {
    await member('mo@acme.test', 'Mo Member');
    await e2e.withPage(
      async ({ page }) => {
        await signIn(page, 'mo@acme.test', '/manage/leave');
        const panel = page.getByRole('region', { name: 'Delete your account' });
        // The team by its display name, not its slug (getByText's substring match ignores case).
        await panel.getByText(/Leave the team Acme:/).waitFor();
        const submit = panel.getByRole('button', { name: 'Delete account' });
        await submit.click();
        await panel.getByText('Enter your current password.').waitFor();

        // A wrong password: said at the field once the question is answered.
        await panel.getByLabel('Current password').fill('not-the-password');
        await submit.click();
        const question = page.getByRole('alertdialog', { name: 'Delete your account?' });
        await question.getByRole('button', { name: 'Delete my account' }).click();
        await panel.getByText('The password is not right.').waitFor();
        // The page behind the question takes input again once it has closed.
        await question.waitFor({ state: 'detached' });

        // Cancel keeps everything.
        await panel.getByLabel('Current password').fill(DEMO_PASSWORD);
        await submit.click();
        await question.getByRole('button', { name: 'Cancel' }).click();
        await question.waitFor({ state: 'detached' });
        assert.equal(await login('mo@acme.test'), 200);

        await submit.click();
        await screenshot(page, 'e2e/account', 'leave-confirm');
        await question.getByRole('button', { name: 'Delete my account' }).click();
        // Signed out, on the sign-in screen.
        await page.getByLabel('Team name').waitFor();
        assert.match(page.url(), /\/login\/team/);
        assert.equal(await login('mo@acme.test'), 401);
      },
      [failedResource(400), failedResource(401)],
    );
    // The team's admins see it in the audit trail.
    const { accessToken } = await tokenFor(e2e.server.server.app, 'ada@acme.test');
    const audit = await fetch(`${e2e.server.url}/api/team/audit`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const events = ((await audit.json()) as { events: Array<{ action: string; target: string }> }).events;
    assert.ok(events.some((e) => e.action === 'member.removed' && e.target === 'mo@acme.test'));
  });

  it("refuses the team's last owner, saying why", async () => {
    await e2e.withPage(
      async ({ page }) => {
        await signIn(page, 'ada@acme.test', '/manage/leave');
        const panel = page.getByRole('region', { name: 'Delete your account' });
        await panel.getByLabel('Current password').fill(DEMO_PASSWORD);
        await panel.getByRole('button', { name: 'Delete account' }).click();
        await page
          .getByRole('alertdialog', { name: 'Delete your account?' })
          .getByRole('button', { name: 'Delete my account' })
          .click();
        await panel.getByText("You are the team's last owner. Make another member an owner first.").waitFor();
        assert.equal(await login('ada@acme.test'), 200);
      },
      [failedResource(409)],
    );
  });
});
