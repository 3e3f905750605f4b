import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { failedResource, screenshot, useE2E } from '../support/browser';
import { CODE_MEMBER, CODE_TEAM, codeTeam } from '../support/email-code';
import { TestSmtp } from '../support/smtp';
import { appOf, codeFor, memberWithApp } from '../support/two-step';

let smtp: TestSmtp | undefined;
// The server's settings name the SMTP server, so it starts first, in the same hook.
const e2e = useE2E(async () => {
  smtp = await TestSmtp.start();
  return { SMTP_URL: smtp.url, LOGIN_ADDRESS_LIMIT: '10000' };
});
after(() => smtp?.close());
const inbox = () => smtp!;
const app = () => appOf(e2e.server);
// A wrong code answers 401 and a link from another browser 409: the screens say why; the browser logs it.
const REFUSED = [failedResource(401), failedResource(409)];

/** On the team's sign-in screen, ask for a code for `email`; the code screen shows. */
async function askForCode(page: Page, email: string) {
  // Made once, on the first use (the file's server starts in a hook that runs beside the others).
  await codeTeam(app());
  await page.goto(`${e2e.server.url}/login/${CODE_TEAM}`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
}

/** The mail's code and link, as a person reads them. */
async function mailFor(email: string) {
  const mail = await inbox().next(email, /sign-in code/);
  const code = /^ {4}(\d{6})$/m.exec(mail.text)?.[1];
  assert.ok(code, mail.text);
  assert.ok(mail.link?.startsWith(`${e2e.server.url}/login/${CODE_TEAM}/emailCode?token=`), mail.link ?? '');
  return { code, link: mail.link! };
}

async function signedIn(page: Page) {
  await page.waitForURL(`${e2e.server.url}/manage`);
  await page.locator('acct-portal .avatar-button').waitFor();
}

describe('sign-in with an e-mail code', () => {
  it('mails a code that signs in: wrong code said at the field, then the right one', async () => {
    await e2e.withPage(async ({ page }) => {
      await askForCode(page, CODE_MEMBER);
      const { code } = await mailFor(CODE_MEMBER);
      const field = page.getByLabel('Code from the email');
      assert.equal(await field.getAttribute('autocomplete'), 'one-time-code');
      await field.fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('That code is not right. Check the newest email and try again.').waitFor();
      await screenshot(page, 'e2e/email-code', 'wrong-code');
      // Pasted with a space, as a mail app may copy it.
      await field.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
      await page.getByRole('button', { name: 'Continue' }).click();
      await signedIn(page);
    }, REFUSED);
  });

  it('the link signs in the browser that asked', async () => {
    await e2e.withPage(async ({ page }) => {
      await askForCode(page, CODE_MEMBER);
      const { link } = await mailFor(CODE_MEMBER);
      await page.goto(link);
      await signedIn(page);
    });
  });

  it('in another browser the link asks for the code, which signs in there', async () => {
    let mailed = { code: '', link: '' };
    await e2e.withPage(async ({ page }) => {
      await askForCode(page, CODE_MEMBER);
      mailed = await mailFor(CODE_MEMBER);
    });
    // A fresh browser context: no cookie of the browser that asked.
    await e2e.withPage(async ({ page }) => {
      await page.goto(mailed.link);
      await page
        .getByText('This link signs in only in the browser where the code was asked for.', { exact: false })
        .waitFor();
      await screenshot(page, 'e2e/email-code', 'other-browser');
      await page.getByLabel('Code from the email').fill(mailed.code);
      await page.getByRole('button', { name: 'Continue' }).click();
      await signedIn(page);
    }, REFUSED);
    // Used up: the link does nothing more.
    await e2e.withPage(
      async ({ page }) => {
        await page.goto(mailed.link);
        await page
          .getByText('This code or link was used, replaced by a newer one or has expired.', { exact: false })
          .waitFor();
      },
      [failedResource(410)],
    );
  });

  it('two-step sign-in still follows the code', async () => {
    const email = `two-step-code@${CODE_TEAM}.test`;
    await codeTeam(app());
    const { secret } = await memberWithApp(app(), email, CODE_TEAM);
    await inbox().next(email, /two-step sign-in is on/i);
    await e2e.withPage(async ({ page }) => {
      await askForCode(page, email);
      const { code } = await mailFor(email);
      await page.getByLabel('Code from the email').fill(code);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
      assert.equal(page.url(), `${e2e.server.url}/login/${CODE_TEAM}`, 'not signed in yet');
      await page.getByLabel('Code from the app').fill(codeFor(app(), secret));
      await page.getByRole('button', { name: 'Continue' }).click();
      await signedIn(page);
    });
  });
});
