import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { failedResource, screenshot, useE2E } from '../support/browser';
import { TestSmtp } from '../support/smtp';
import { addVirtualAuthenticator } from '../support/virtual-authenticator';

let smtp: TestSmtp | undefined;
// The server's settings name the SMTP server, so it starts first, in the same hook (sign-up is open in
// the demo configuration the e2e server runs).
const e2e = useE2E(async () => {
  smtp = await TestSmtp.start();
  return { SMTP_URL: smtp.url, LOGIN_ADDRESS_LIMIT: '10000' };
});
after(() => smtp?.close());
const inbox = () => smtp!;
const PASSWORD = 'a fine new passphrase';
/** Breached, and passes every other rule: the range API's stand-in refuses it. */
const BREACHED = 'correct horse battery staple';

let serial = 0;
const fresh = () => {
  serial++;
  const stamp = `${Date.now().toString(36)}${serial}`;
  return { email: `owner-${stamp}@startup.test`, address: `e2e-${stamp}` };
};

/** From the team step's Register button, the details; the code screen shows. */
async function startTeam(page: Page, email: string, address: string) {
  await page.goto(`${e2e.server.url}/login/team`);
  await page.getByRole('link', { name: 'Register' }).click();
  await page.waitForURL(`${e2e.server.url}/signup`);
  await giveDetails(page, email, address);
}

/** The sign-up screen's details, sent; the code screen shows. */
async function giveDetails(page: Page, email: string, address: string) {
  await page.getByRole('heading', { name: 'Start a team' }).waitFor();
  await page.getByLabel('Team name').fill('Rocket Science');
  await page.getByLabel('Team address').fill(address);
  await page.getByText(/^This address is free: /).waitFor();
  await page.getByLabel('Your name').fill('Nia Newcomer');
  await page.getByLabel('Work email').fill(email);
  await screenshot(page, 'e2e/sign-up', 'details');
  // The request carries the challenge the page solved in its worker while the details were typed.
  const asked = page.waitForRequest(
    (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/account/signup',
  );
  await page.getByRole('button', { name: 'Send code' }).click();
  const body = (await asked).postDataJSON() as { proof?: { solution?: unknown } };
  assert.ok(body.proof?.solution, 'a solved proof-of-work challenge');
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
}

/** The mail's code and link, as a person reads them. */
async function mailFor(email: string) {
  const mail = await inbox().next(email, /code to start Rocket Science/);
  const code = /^ {4}(\d{6})$/m.exec(mail.text)?.[1];
  assert.ok(code, mail.text);
  assert.ok(mail.link?.startsWith(`${e2e.server.url}/signup?id=`), mail.link ?? '');
  return { code, link: mail.link! };
}

/** The password step: a breached password refused at its field, then a good one makes the team. */
async function choosePassword(page: Page, landing = `${e2e.server.url}/manage/team`) {
  await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
  await page.getByLabel('New password', { exact: true }).fill(BREACHED);
  await page.getByLabel('Confirm new password').fill(BREACHED);
  await page.getByRole('button', { name: 'Create the team' }).click();
  await page
    .getByText(/breach/i)
    .first()
    .waitFor();
  await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm new password').fill(PASSWORD);
  await screenshot(page, 'e2e/sign-up', 'password');
  await page.getByRole('button', { name: 'Create the team' }).click();
  await page.waitForURL(landing);
}

describe('starting a team', () => {
  it('verifies the address with the mailed code, sets a password and lands in the team area', async () => {
    const { email, address } = fresh();
    await e2e.withPage(
      async ({ page }) => {
        await startTeam(page, email, address);
        const { code } = await mailFor(email);
        const field = page.getByLabel('Code', { exact: true });
        assert.equal(await field.getAttribute('autocomplete'), 'one-time-code');
        await field.fill(code === '000000' ? '111111' : '000000');
        await page.getByRole('button', { name: 'Confirm' }).click();
        await page.getByText(/^This code is not right or has expired/).waitFor();
        await screenshot(page, 'e2e/sign-up', 'wrong-code');
        await field.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
        await page.getByRole('button', { name: 'Confirm' }).click();
        await choosePassword(page);
        await page.locator('acct-portal .avatar-button').waitFor();

        // The checklist: each step leads where it is done; put away, it stays away.
        const checklist = page.getByRole('region', { name: 'Get your team started' });
        await checklist.waitFor();
        await screenshot(page, 'e2e/sign-up', 'checklist');
        await checklist.getByRole('button', { name: 'Invite people' }).click();
        await page.getByRole('dialog').waitFor();
        await page.keyboard.press('Escape');
        await checklist.getByRole('button', { name: 'Hide this list' }).click();
        await checklist.waitFor({ state: 'detached' });
        await page.reload();
        await page.getByRole('heading', { name: 'Sign-in options' }).waitFor();
        assert.equal(await page.getByRole('region', { name: 'Get your team started' }).count(), 0);
      },
      [failedResource(400)],
    );
  });

  it('makes the team with a passkey instead of a password', async () => {
    const { email, address } = fresh();
    await e2e.withPage(async ({ page }) => {
      const authenticator = await addVirtualAuthenticator(page);
      await startTeam(page, email, address);
      const { code } = await mailFor(email);
      await page.getByLabel('Code', { exact: true }).fill(code);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
      await page.getByRole('button', { name: 'Use a passkey instead' }).click();
      await page.waitForURL(`${e2e.server.url}/manage/team`);
      await page.getByRole('region', { name: 'Get your team started' }).waitFor();
      const held = await authenticator.credentials();
      assert.equal(held.length, 1);
      const { kysely } = e2e.server.server.db;
      const stored = await kysely
        .selectFrom('passkeys')
        .innerJoin('users', 'users.id', 'passkeys.user_id')
        .select(['users.password_hash'])
        .where('users.email', '=', email)
        .execute();
      assert.deepEqual(stored, [{ password_hash: null }], 'one passkey, no password');
    });
  });

  it('goes on to the app whose sign-in it was started from', async () => {
    const { email, address } = fresh();
    await e2e.withPage(
      async ({ page }) => {
        // The demo's suite app (another origin) signs in through the portal's OpenID Provider.
        const suiteApp = `${e2e.server.partnerUrl}/suite-app.html`;
        await page.goto(suiteApp);
        await page.getByRole('button', { name: 'Sign in with the portal' }).click();
        await page.waitForURL((at) => at.pathname === '/login/team');
        await page.getByRole('link', { name: 'Register' }).click();
        await page.waitForURL(
          (at) => at.pathname === '/signup' && !!at.searchParams.get('ReturnUrl')?.startsWith('/oidc/'),
        );
        await giveDetails(page, email, address);
        const { code, link } = await mailFor(email);
        // The mail's link goes on to the same place, for a person who finishes from the mail.
        assert.equal(
          new URL(link).searchParams.get('ReturnUrl'),
          new URL(page.url()).searchParams.get('ReturnUrl'),
        );
        await page.getByLabel('Code', { exact: true }).fill(code);
        await page.getByRole('button', { name: 'Confirm' }).click();
        await choosePassword(page, suiteApp);
        // Signed in to the app as the new team's owner, with no second sign-in.
        await page.locator('#oidc-status').filter({ hasText: 'Signed in through the portal.' }).waitFor();
        assert.equal(await page.locator('#oidc-email').textContent(), email);
        assert.equal(await page.locator('#oidc-team').textContent(), address);
        // Its token works on the API at once (it may be issued in the account's first second).
        await page
          .locator('#oidc-userinfo')
          .filter({ hasText: `${email} (${address})` })
          .waitFor();
        await screenshot(page, 'e2e/sign-up', 'back-in-the-app');
      },
      [failedResource(400)],
    );
  });

  it('verifies with the mail’s link, in another browser too', async () => {
    const { email, address } = fresh();
    await e2e.withPage(async ({ page }) => {
      await startTeam(page, email, address);
    });
    const { link } = await mailFor(email);
    await e2e.withPage(
      async ({ page }) => {
        await page.goto(link);
        await choosePassword(page);
      },
      [failedResource(400)],
    );
    // Used once: the link now says so.
    await e2e.withPage(
      async ({ page }) => {
        await page.goto(link);
        await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
        await screenshot(page, 'e2e/sign-up', 'gone');
      },
      [failedResource(410)],
    );
  });
});
