/**
 * Signing in through a team's SAML connection by e-mail domain, end to end against Debian's
 * SimpleSAMLphp (test/support/simplesamlphp.ts). Ada, acme's owner, connects SimpleSAMLphp, tests it,
 * turns it on and routes acme.test through it on the Domains screen; fox@acme.test, not yet a member,
 * types his work address on acme's sign-in screen, is sent to SimpleSAMLphp's login page by the single
 * sign-on button (from the keyboard), lands signed in and is a member. Once ada requires single
 * sign-on for acme.test, a member's password is refused with the screen's reason, and ada's (an owner's)
 * still works. The tests run in order: each goes on from the last one's team.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { failedResource, screenshot, signInContext, until, useE2E } from '../support/browser';
import { row, samlAdmin, signInAtProvider } from '../support/saml-connection';
import { IDP_USERS, useSimpleSamlPhp } from '../support/simplesamlphp';
import { sessionFor } from '../support/test-server';
import { appOf, makeUser } from '../support/two-step';

const e2e = useE2E();
const simplesamlphp = useSimpleSamlPhp();
const { withPage } = e2e;
const SHOTS = 'e2e/sso-sign-in';
const CONNECTION = 'Acme SimpleSAMLphp';
const { setUp, testSignIn, turnOn } = samlAdmin(e2e, simplesamlphp, SHOTS);

const field = (page: Page, name: string) => page.getByRole('textbox', { name });
const ssoButton = (page: Page) => page.getByRole('button', { name: 'Continue with single sign-on' });
const SSO_NOTE = 'Addresses at acme.test sign in through your company’s single sign-on.';

/** Whether the element has focus (in its shadow root: the portal's screens live in one). */
const hasFocus = (page: Page, name: string) =>
  page.getByRole('button', { name }).evaluate((element) => element.matches(':focus'));

/** Ada, signed in, opens `path`. */
async function openAsAda(page: Page, path: string) {
  await signInContext(page.context(), (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
  await page.goto(`${e2e.server.url}${path}`);
}

/** Ada on the Domains screen, at acme.test's sign-in part. */
async function domainSignIn(page: Page) {
  await openAsAda(page, '/manage/team/domains');
  const part = row(page, 'acme.test').getByRole('group', { name: 'Sign-in for acme.test' });
  await part.waitFor();
  return part;
}

/** The password asked for after all (only an owner's will do once single sign-on is required). */
async function signInWithPassword(page: Page) {
  await page.getByRole('button', { name: 'Team owner? Sign in with your password' }).click();
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

/** acme's sign-in screen with `email` typed: single sign-on offered for it, the password hidden. */
async function typeWorkAddress(page: Page, email: string) {
  await page.goto(`${e2e.server.url}/login/acme`);
  await field(page, 'Email').fill(email);
  await ssoButton(page).waitFor();
  await page.getByText(SSO_NOTE).waitFor();
  // The note is the field's description, read out with it.
  const description = await field(page, 'Email').evaluate((input) => {
    const root = input.getRootNode() as Document | ShadowRoot;
    const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
    return ids.map((id) => root.getElementById(id)?.textContent ?? '').join(' ');
  });
  assert.ok(description.includes(SSO_NOTE), description);
  assert.equal(await page.getByLabel('Password').count(), 0);
}

describe('signing in through a team’s SAML connection by e-mail domain', () => {
  it('is set up by the owner: connected, tested, turned on, and acme.test routed through it', async () => {
    await withPage(async ({ page }, context) => {
      await setUp(page, CONNECTION);
      const { tab, problems } = await testSignIn(page, context, CONNECTION, IDP_USERS.dana);
      await row(tab, CONNECTION)
        .getByText(/^The last test passed on .+\. Your provider sent:$/)
        .waitFor();
      await turnOn(tab, CONNECTION);
      assert.deepEqual(await problems(), []);

      const part = await domainSignIn(tab);
      await part.getByRole('combobox', { name: 'Sign in through' }).selectOption({ label: CONNECTION });
      await part.getByRole('button', { name: 'Save sign-in for acme.test' }).click();
      await tab.getByText('Sign-in for acme.test saved').waitFor();
      await screenshot(tab, SHOTS, 'domains-sign-in');
    });
  });

  it('signs a new employee in through SimpleSAMLphp’s page, from the keyboard, and makes them a member', async () => {
    const fox = IDP_USERS.fox;
    await withPage(async ({ page }) => {
      await typeWorkAddress(page, fox.email);
      // Not required: a password is still offered.
      await page.getByRole('button', { name: 'Sign in with a password instead' }).waitFor();
      await screenshot(page, SHOTS, 'sign-in-sso-light');

      // From the address, the next stop is the button; Enter presses it.
      await field(page, 'Email').focus();
      await page.keyboard.press('Tab');
      assert.equal(await hasFocus(page, 'Continue with single sign-on'), true);
      await page.keyboard.press('Enter');
      await signInAtProvider(page, simplesamlphp.idp, fox);

      await page.waitForURL((url) => url.origin === e2e.server.url && url.pathname === '/manage');
      await page.locator('acct-portal .header-name').getByText('Fox Mulder').waitFor();
      await page
        .getByRole('region', { name: 'Personal info' })
        .getByText(fox.email, { exact: true })
        .waitFor();
      await screenshot(page, SHOTS, 'signed-in');
    });

    // Ada finds him among acme's members.
    await withPage(async ({ page }) => {
      await openAsAda(page, '/manage/user?q=fox');
      await page.locator('acct-portal li.member', { hasText: fox.email }).getByText('Fox Mulder').waitFor();
    });
  });

  it('once required, refuses a member’s password with the reason, and an owner’s still works', async () => {
    await withPage(async ({ page }) => {
      const part = await domainSignIn(page);
      await part.getByRole('checkbox', { name: 'Require single sign-on', exact: true }).check();
      await part.getByRole('button', { name: 'Save sign-in for acme.test' }).click();
      await page.getByText('Sign-in for acme.test saved').waitFor();
    });

    const eve = 'eve@acme.test';
    await makeUser(appOf(e2e.server), eve);
    await withPage(
      async ({ page }) => {
        await typeWorkAddress(page, eve);
        assert.equal(await page.getByRole('button', { name: 'Sign in with a password instead' }).count(), 0);
        await signInWithPassword(page);
        await page
          .getByText(
            'Your company requires you to sign in with its single sign-on. Enter your work email address and continue.',
          )
          .waitFor();
        // Back to single sign-on for the address, as the message asks: its button, the address focused.
        await ssoButton(page).waitFor();
        assert.equal(await page.getByLabel('Password').count(), 0);
        await until(
          () => field(page, 'Email').evaluate((element) => element.matches(':focus')),
          'Email focused',
        );
        await screenshot(page, SHOTS, 'sso-required-refused');
      },
      [failedResource(403)],
    );

    await withPage(async ({ page }) => {
      await typeWorkAddress(page, 'ada@acme.test');
      await signInWithPassword(page);
      await page.waitForURL(`${e2e.server.url}/manage`);
      await page.locator('acct-portal .header-name').getByText('Ada Lovelace').waitFor();
    });
  });

  it('shows the single sign-on button in the dark theme too', async () => {
    await withPage(async ({ page }, context) => {
      await context.addInitScript(() => localStorage.setItem('darkMode', 'true'));
      await typeWorkAddress(page, IDP_USERS.dana.email);
      // Required by now: the password only for owners.
      await page.getByRole('button', { name: 'Team owner? Sign in with your password' }).waitFor();
      await screenshot(page, SHOTS, 'sign-in-sso-required-dark');
    });
  });

  it('on a team that signs in only through single sign-on, says so for an address elsewhere', async () => {
    const db = e2e.server.server.db.kysely;
    await db.updateTable('teams').set({ local_enabled: 0 }).where('name', '=', 'acme').execute();
    try {
      await withPage(async ({ page }) => {
        await page.goto(`${e2e.server.url}/login/acme`);
        await field(page, 'Email').fill('someone@elsewhere.example');
        await page.getByRole('button', { name: 'Continue', exact: true }).click();
        await page
          .getByText(/^This address does not sign in through your company’s single sign-on/)
          .waitFor();
        assert.equal(await field(page, 'Email').getAttribute('aria-invalid'), 'true');
        assert.equal(await page.getByLabel('Password').count(), 0, 'no password field to fill');
      });
    } finally {
      await db.updateTable('teams').set({ local_enabled: 1 }).where('name', '=', 'acme').execute();
    }
  });
});
