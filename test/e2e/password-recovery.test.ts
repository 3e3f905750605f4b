import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { RESET_TOKEN_MS } from '../../demo/server/routes/password-reset';
import { failedResource, screenshot, useE2E } from '../support/browser';
import { TestSmtp } from '../support/smtp';

let smtp: TestSmtp | undefined;
// The server's settings name the SMTP server, so it starts first, in the same hook.
const e2e = useE2E(async () => {
  smtp = await TestSmtp.start();
  return { SMTP_URL: smtp.url, LOGIN_ADDRESS_LIMIT: '10000' };
});
after(() => smtp?.close());
const inbox = () => smtp!;
const { withPage } = e2e;

async function askForLink(page: Page, email: string) {
  await page.goto(`${e2e.server.url}/login/acme`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.waitForURL(`${e2e.server.url}/login/acme/forgotPassword`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Get reset link' }).click();
  await page
    .getByText(`If an account exists for ${email}, a reset link will be sent to it shortly.`)
    .waitFor();
}

async function chooseNew(page: Page, password: string, confirm = password) {
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(confirm);
  await page.getByRole('button', { name: 'Reset password' }).click();
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${e2e.server.url}/login/acme`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('password recovery', () => {
  it('forgot → mail → link → reset → the new password signs in, the old one fails; the link works once', async () => {
    let link = '';
    await withPage(async ({ page }) => {
      await askForLink(page, 'ada@acme.test');
      await screenshot(page, 'e2e/recovery', 'forgot-sent');
      const mail = await inbox().next('ada@acme.test', /Reset your/);
      link = mail.link!;
      assert.ok(link.startsWith(`${e2e.server.url}/login/acme/resetPassword?id=`), link);
      await page.goto(link);
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      assert.equal(
        await page.getByLabel('New password', { exact: true }).getAttribute('autocomplete'),
        'new-password',
      );
      await page
        .getByText('Use 8 to 128 characters. Avoid common passwords and your email address.')
        .waitFor();
      await screenshot(page, 'e2e/recovery', 'reset-form');
      await chooseNew(page, 'ada chose a long new one');
      await page.getByRole('heading', { name: 'Password reset' }).waitFor();
      await screenshot(page, 'e2e/recovery', 'reset-success');
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL(`${e2e.server.url}/login/acme/`);
      await page.getByLabel('Password').waitFor();
      await inbox().next('ada@acme.test', /was changed/);
    });
    await withPage(
      async ({ page }) => {
        await signIn(page, 'ada@acme.test', DEMO_PASSWORD);
        await page.getByRole('alert').filter({ hasText: 'The email or password is incorrect.' }).waitFor();
        await page.getByLabel('Password').fill('ada chose a long new one');
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.waitForURL(`${e2e.server.url}/manage`);
      },
      [failedResource(401)],
    );
    await withPage(
      async ({ page }) => {
        await page.goto(link);
        await chooseNew(page, 'and another long one');
        await page.getByRole('heading', { name: 'We could not reset your password' }).waitFor();
        await screenshot(page, 'e2e/recovery', 'reset-error');
        await page.getByRole('link', { name: 'Try again' }).click();
        await page.waitForURL(`${e2e.server.url}/login/acme/forgotPassword`);
      },
      [failedResource(410)],
    );
  });

  it('keeps the ReturnUrl through forgot → mail → reset → sign in', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/login/globex?ReturnUrl=%2Fmanage%2Fqr`);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.waitForURL(`${e2e.server.url}/login/globex/forgotPassword?ReturnUrl=%2Fmanage%2Fqr`);
      await page.getByLabel('Email').fill('carol@globex.test');
      await page.getByRole('button', { name: 'Get reset link' }).click();
      const { link } = await inbox().next('carol@globex.test', /Reset your/);
      assert.equal(new URL(link!).searchParams.get('ReturnUrl'), '/manage/qr');
      await page.goto(link!);
      await chooseNew(page, 'carol chose a long new one');
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL(`${e2e.server.url}/login/globex/?ReturnUrl=%2Fmanage%2Fqr`);
      await page.getByLabel('Email').fill('carol@globex.test');
      await page.getByLabel('Password').fill('carol chose a long new one');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${e2e.server.url}/manage/qr`);
      await inbox().next('carol@globex.test', /was changed/);
    });
  });

  it('shows the error state for an expired link', async () => {
    await withPage(
      async ({ page }) => {
        await askForLink(page, 'bob@acme.test');
        const { link } = await inbox().next('bob@acme.test', /Reset your/);
        e2e.server.clock.advance(RESET_TOKEN_MS + 60_000);
        try {
          await page.goto(link!);
          await chooseNew(page, 'bob is too late now');
          await page.getByRole('heading', { name: 'We could not reset your password' }).waitFor();
        } finally {
          e2e.server.clock.advance(-(RESET_TOKEN_MS + 60_000));
        }
      },
      [failedResource(410)],
    );
  });

  it('sends a link with a mismatched id (or no token) to /, which ends on the team screen', async () => {
    // `/` is /manage, which sends a signed-out visitor to the team screen: wait for where it settles.
    const landsOnTeamScreen = async (page: Page) => {
      await page.getByLabel('Team name').waitFor();
      const url = new URL(page.url());
      assert.equal(url.origin + url.pathname, `${e2e.server.url}/login/team`);
      assert.equal(url.searchParams.get('ReturnUrl'), '/manage');
    };
    await withPage(
      async ({ page }) => {
        await askForLink(page, 'locked@acme.test');
        const { link } = await inbox().next('locked@acme.test', /Reset your/);
        const tampered = new URL(link!);
        tampered.searchParams.set('id', 'someone-else');
        await page.goto(tampered.href);
        await chooseNew(page, 'a long enough password');
        await landsOnTeamScreen(page);
        await page.goto(`${e2e.server.url}/login/acme/resetPassword?id=x`);
        await landsOnTeamScreen(page);
      },
      [failedResource(401)],
    );
  });

  it('gives an unknown e-mail the same message and sends nothing', async () => {
    await withPage(async ({ page }) => {
      await askForLink(page, 'nobody@acme.test');
      // Mail goes out in the background, in order: once a later request's mail is in, an earlier one
      // would be too.
      await askForLink(page, 'ada@acme.test');
      await inbox().next('ada@acme.test', /Reset your/);
      assert.deepEqual(
        inbox().received.filter((m) => m.to.includes('nobody')),
        [],
      );
    });
  });

  it('tells a team without password sign-in that it signs in with its provider, and sends nothing', async () => {
    await withPage(async ({ page }) => {
      for (const path of ['forgotPassword', 'resetPassword?id=someone&token=something']) {
        await page.goto(`${e2e.server.url}/login/umbrella/${path}`);
        await page
          .getByText('Umbrella signs in with its identity provider, so there is no password to reset here.', {
            exact: false,
          })
          .waitFor();
        assert.equal(await page.getByLabel('Email').count(), 0, path);
        assert.equal(await page.getByLabel('New password').count(), 0, path);
        await screenshot(page, 'e2e/recovery', `provider-only-${path.split('?')[0]}`);
        await page.getByRole('link', { name: 'Back to sign in' }).click();
        await page.waitForURL(`${e2e.server.url}/login/umbrella/`);
        await page.getByRole('button', { name: 'Sign in with Microsoft' }).waitFor();
      }
    });
  });

  it("checks the form: valid e-mail, both fields, equal, and the server's policy message on both", async () => {
    await withPage(
      async ({ page }) => {
        await page.goto(`${e2e.server.url}/login/acme/forgotPassword`);
        await page.getByLabel('Email').fill('not-an-address');
        await page.getByRole('button', { name: 'Get reset link' }).click();
        await page.getByText('Enter a valid email address.').waitFor();
        await askForLink(page, 'locked@acme.test');
        const { link } = await inbox().next('locked@acme.test', /Reset your/);
        await page.goto(link!);
        await page.getByRole('button', { name: 'Reset password' }).click();
        await page.getByText('Enter a new password.').waitFor();
        await page.getByText('Confirm your new password.').waitFor();
        await chooseNew(page, 'one long password', 'another long password');
        await page.getByText('The passwords do not match.').waitFor();
        await chooseNew(page, 'password123');
        // Spec §4: the server's message shows on both fields, and focus goes to the first.
        const message = page.getByText('This password is too common. Choose one that is harder to guess.');
        await message.first().waitFor();
        assert.equal(await message.count(), 2);
        for (const label of ['New password', 'Confirm new password']) {
          assert.equal(
            await page.getByLabel(label, { exact: true }).getAttribute('aria-invalid'),
            'true',
            label,
          );
        }
        // A predicate function (not a string) is compiled once, so the page's CSP lets Playwright poll it.
        const focusedName = () =>
          page.evaluate(
            () =>
              document.querySelector('acct-portal')?.shadowRoot?.activeElement?.getAttribute('name') ?? null,
          );
        await page
          .waitForFunction(
            (name) =>
              document.querySelector('acct-portal')?.shadowRoot?.activeElement?.getAttribute('name') === name,
            'new-password',
            { timeout: 5000 },
          )
          .catch(async (error: unknown) => {
            throw new Error(`focus is on ${await focusedName()}`, { cause: error });
          });
        await screenshot(page, 'e2e/recovery', 'reset-policy');
      },
      [failedResource(400)],
    );
  });
});
