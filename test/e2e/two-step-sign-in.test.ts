import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { codeFieldFocused, failedResource, screenshot, signInContext, useE2E } from '../support/browser';
import { sessionFor, tokenFor } from '../support/test-server';
import { appOf, bearer, codeFor, makeUser, memberWithApp } from '../support/two-step';
import { addVirtualAuthenticator, registerPasskey } from '../support/virtual-authenticator';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });
const app = () => appOf(e2e.server);
// A refused code, passkey or expired sign-in answers 401 (the screen says why); the screens log it.
const REFUSED = [failedResource(401)];
let serial = 0;

/** A new member of `team` with the demo password; `app`: with the authenticator app set up. */
async function member(team = 'acme', withApp = false) {
  const email = `two-step-${++serial}@${team}.test`;
  if (withApp) return { email, ...(await memberWithApp(app(), email, team)) };
  await makeUser(app(), email, team);
  const { accessToken } = await tokenFor(e2e.server.server.app, email, team);
  return { email, accessToken, secret: '', recoveryCodes: [] as string[] };
}

async function password(page: Page, email: string, team = 'acme') {
  await page.goto(`${e2e.server.url}/login/${team}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Type into the focused field and press Enter: the keyboard-only way through the second step. */
/** Types a code into the code field once it has the focus (the screen gives it after it renders). */
async function typeCode(page: Page, code: string) {
  await codeFieldFocused(page);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

async function signedInAs(page: Page, email: string) {
  await page.waitForURL(`${e2e.server.url}/manage`);
  await page.locator('acct-portal .avatar-button').waitFor();
  const who = await page.evaluate(async () => {
    const xsrf = /(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const check = await fetch('/account/check', {
      method: 'POST',
      headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) },
    });
    return (await check.json()) as { authenticated: boolean };
  });
  assert.equal(who.authenticated, true, `${email} is signed in`);
}

describe('passkey sign-in', () => {
  it('signs in with a passkey and no password; another team and a removed passkey are refused', async () => {
    await e2e.withPage(async ({ page }, context) => {
      const who = await member();
      await page.goto(`${e2e.server.url}/login/acme`);
      const authenticator = await addVirtualAuthenticator(page);
      await registerPasskey(page, who.accessToken);
      assert.equal((await authenticator.credentials()).length, 1);

      // Another team's sign-in page: the browser offers the passkey, the server refuses it.
      await page.goto(`${e2e.server.url}/login/globex`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByText('This passkey cannot sign you in to Globex').waitFor();
      await screenshot(page, 'e2e/two-step', 'passkey-refused');

      await page.goto(`${e2e.server.url}/login/acme`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await signedInAs(page, who.email);
      const typed = await context.cookies();
      assert.ok(typed.some((c) => c.name === 'acct_session'));

      // Removed in the manage area: the authenticator still holds it, the server no longer knows it.
      const list = await bearer(app(), who.accessToken, 'GET', '/api/user/passkeys');
      const [passkey] = (list.json() as { passkeys: Array<{ id: string }> }).passkeys;
      assert.equal(
        (await bearer(app(), who.accessToken, 'DELETE', `/api/user/passkeys/${passkey!.id}`)).statusCode,
        204,
      );
      await context.clearCookies();
      await page.goto(`${e2e.server.url}/login/acme`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByText('This passkey was removed from its account', { exact: false }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/login/acme');
    }, REFUSED);
  });
});

describe('passkeys in the e-mail field’s autofill', () => {
  // Headless Chromium keeps the autofill ceremony waiting for a pick from its list, which CDP cannot
  // make: this checks that the ceremony is asked for with the form, and yields to the button.
  it('is asked for once the form shows, and gives way to the button', async () => {
    await e2e.withPage(async ({ page }, context) => {
      const who = await member();
      await page.goto(`${e2e.server.url}/login/acme`);
      await addVirtualAuthenticator(page);
      await registerPasskey(page, who.accessToken);
      await context.clearCookies();
      const asked = page.waitForRequest(
        (request) =>
          request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/account/passkey/options'),
      );
      await page.goto(`${e2e.server.url}/login/acme`);
      assert.equal(await page.getByLabel('Email').getAttribute('autocomplete'), 'username webauthn');
      await asked;
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await signedInAs(page, who.email);
    });
  });
});

describe('two-step sign-in with the authenticator app', () => {
  it('asks for the code after the password: a wrong one, the right one, then the same one again', async () => {
    await e2e.withPage(async ({ page }, context) => {
      const who = await member('acme', true);
      await password(page, who.email);
      await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
      // Focus is in the code field: the keyboard alone finishes the sign-in.
      await typeCode(page, '000000' === codeFor(app(), who.secret) ? '111111' : '000000');
      await page.getByText('That code is not right').waitFor();
      await screenshot(page, 'e2e/two-step', 'code-wrong');
      const code = codeFor(app(), who.secret);
      await typeCode(page, code);
      await signedInAs(page, who.email);

      await context.clearCookies();
      await password(page, who.email);
      await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
      await typeCode(page, code);
      await page.getByText('That code is not right').waitFor();
    }, REFUSED);
  });

  it('takes a recovery code once instead of the app’s code', async () => {
    await e2e.withPage(async ({ page }, context) => {
      const who = await member('acme', true);
      const [first] = who.recoveryCodes;
      await password(page, who.email);
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByLabel('Recovery code').fill(first!);
      await page.getByRole('button', { name: 'Continue' }).click();
      await signedInAs(page, who.email);

      await context.clearCookies();
      await password(page, who.email);
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByLabel('Recovery code').fill(first!);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('That recovery code is not valid, or it was used already.').waitFor();
    }, REFUSED);
  });

  it('a passkey finishes the second step: the user’s own, not another user’s', async () => {
    await e2e.withPage(async ({ page }) => {
      const who = await member('acme', true);
      const other = await member();
      await page.goto(`${e2e.server.url}/login/acme`);
      const authenticator = await addVirtualAuthenticator(page);
      // Their passkey is on another device; this one holds only the other user's.
      await registerPasskey(page, who.accessToken);
      await authenticator.clearCredentials();
      await registerPasskey(page, other.accessToken);
      await password(page, who.email);
      await page.getByRole('button', { name: 'Use a passkey instead' }).click();
      await page.getByText('This passkey is not one of yours.').waitFor();
      await screenshot(page, 'e2e/two-step', 'passkey-not-yours');

      await authenticator.clearCredentials();
      await registerPasskey(page, who.accessToken);
      await page.getByRole('button', { name: 'Use a passkey instead' }).click();
      await signedInAs(page, who.email);
    }, REFUSED);
  });
});

describe('a team that requires two-step sign-in', () => {
  it('is turned on by a team admin; a member without it sets up the app at sign-in, codes shown once', async () => {
    const db = e2e.server.server.db.kysely;
    try {
      await e2e.withPage(async ({ page }, context) => {
        await signInContext(context, (await sessionFor(e2e.server.server.app, 'carol@globex.test')).token);
        await page.goto(`${e2e.server.url}/manage/team`);
        const rule = page.getByRole('switch', { name: 'Require two-step sign-in' });
        await rule.click();
        // Turning it on is confirmed first, with the count of members it sends to set-up.
        await page
          .getByRole('alertdialog', { name: 'Require two-step sign-in?' })
          .getByRole('button', { name: 'Require it' })
          .click();
        await rule.and(page.locator('[aria-checked="true"]')).waitFor();
      });
      const team = await db
        .selectFrom('teams')
        .select('require_two_step')
        .where('name', '=', 'globex')
        .executeTakeFirstOrThrow();
      assert.equal(team.require_two_step, 1);

      await e2e.withPage(async ({ page }) => {
        const who = await member('globex');
        await password(page, who.email, 'globex');
        await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
        const key = await page.locator('acct-portal .totp-key .secret').textContent();
        const secret = key!.replace(/\s/g, '');
        await screenshot(page, 'e2e/two-step', 'enrol');
        // The code field has the focus once the key is shown: typing the app's code is all there is to do.
        await codeFieldFocused(page, 5000);
        await typeCode(page, codeFor(app(), secret));
        await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
        assert.equal(await page.locator('acct-portal .recovery-codes li').count(), 10);
        await screenshot(page, 'e2e/two-step', 'enrol-codes');
        await page.getByRole('button', { name: 'Continue' }).click();
        await signedInAs(page, who.email);
      });
    } finally {
      await db.updateTable('teams').set({ require_two_step: 0 }).where('name', '=', 'globex').execute();
    }
  });
});
