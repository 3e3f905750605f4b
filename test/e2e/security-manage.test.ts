/**
 * The passkeys and two-step screen (/manage/security) against the real server, with Chromium's virtual
 * authenticator as the user's device: adding, renaming and removing a passkey, the last way to sign in
 * kept, setting up the authenticator app (a wrong code, then the right one, the recovery codes once),
 * new codes after the password, turning it off with a passkey, and a team that requires it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { failedResource, screenshot, signInContext, until, useE2E } from '../support/browser';
import { sessionFor } from '../support/test-server';
import { appOf, codeFor, makeUser } from '../support/two-step';
import { addVirtualAuthenticator, type VirtualAuthenticator } from '../support/virtual-authenticator';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });

/** The running server as the database helpers of the server tests take it (they use these three). */
const direct = () => appOf(e2e.server);

let users = 0;
/** A new member of `team` (with the demo password unless `password` is null). */
async function newUser(team = 'acme', password: string | null = DEMO_PASSWORD): Promise<string> {
  const email = `security${++users}@${team}.test`;
  await makeUser(direct(), email, team, password);
  return email;
}

/** The screen, signed in as `email`, with a virtual authenticator attached to the page. */
async function openScreen(page: Page, email: string, team = 'acme'): Promise<VirtualAuthenticator> {
  await signInContext(page.context(), (await sessionFor(e2e.server.server.app, email, team)).token);
  const authenticator = await addVirtualAuthenticator(page);
  await page.goto(`${e2e.server.url}/manage/security`);
  await page.getByRole('heading', { level: 1, name: 'Passkeys and two-step' }).waitFor();
  return authenticator;
}

const passkeysPanel = (page: Page) => page.getByRole('region', { name: 'Passkeys' });
const appPanel = (page: Page) => page.getByRole('region', { name: 'Authenticator app' });
const codesPanel = (page: Page) => page.getByRole('region', { name: 'Recovery codes' });

/** Add a passkey named `name` through the screen. */
async function addPasskey(page: Page, name: string) {
  await passkeysPanel(page).getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.waitFor({ state: 'detached' });
  await passkeysPanel(page).getByRole('listitem').filter({ hasText: name }).waitFor();
}

/** Set up the authenticator app through the screen; its key. */
async function setUpApp(page: Page): Promise<string> {
  await appPanel(page).getByRole('button', { name: 'Set up' }).click();
  const secret = (await appPanel(page).locator('code.secret').textContent())!.replace(/\s/g, '');
  await appPanel(page).getByLabel('Code from the app').fill(codeFor(direct(), secret));
  await appPanel(page).getByRole('button', { name: 'Turn on' }).click();
  await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
  return secret;
}

/** The element that has focus, looking into shadow roots: its text. */
const focusedText = (page: Page) =>
  page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.textContent?.trim() ?? '';
  });

describe('the passkeys and two-step screen', () => {
  it('sends a visitor who is not signed in to the sign-in, coming back afterwards', () =>
    e2e.withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/manage/security`);
      await page.waitForURL(/\/login\/team\?ReturnUrl=%2Fmanage%2Fsecurity$/);
    }));

  it('adds a passkey with a name, renames it, and removes it', () =>
    e2e.withPage(
      async ({ page }) => {
        const email = await newUser();
        const authenticator = await openScreen(page, email);
        await passkeysPanel(page).getByText('You have no passkeys yet.').waitFor();

        // The name comes prefilled from the device; an empty one is asked again at the field.
        await passkeysPanel(page).getByRole('button', { name: 'Add a passkey' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
        assert.equal(await dialog.getByLabel('Name').inputValue(), 'Passkey on Linux');
        await dialog.getByLabel('Name').fill('  ');
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await dialog.getByText('Enter a name.').waitFor();
        assert.equal(await dialog.getByLabel('Name').getAttribute('aria-invalid'), 'true');
        await dialog.getByLabel('Name').fill('Work laptop');

        // The user turns the browser's prompt down: calmly said, nothing saved, the name kept.
        await authenticator.setUserVerified(false);
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await dialog
          .getByRole('status')
          .getByText('The passkey was not saved: the request was cancelled or took too long.')
          .waitFor();
        assert.equal((await authenticator.credentials()).length, 0);
        assert.equal(await dialog.getByLabel('Name').inputValue(), 'Work laptop');
        await authenticator.setUserVerified(true);
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await page.getByText('The passkey is added.').waitFor();
        await dialog.waitFor({ state: 'detached' });

        assert.equal((await authenticator.credentials()).length, 1);
        const row = passkeysPanel(page).getByRole('listitem');
        await row.filter({ hasText: 'Work laptop' }).waitFor();
        assert.equal(await row.count(), 1);
        await row.getByText('On one device').waitFor();
        await row.getByText('Never used').waitFor();
        await row.getByText(/^Added /).waitFor();
        await screenshot(page, 'e2e/security', 'passkey-added');

        // The same device again: it already holds this account's passkey.
        await passkeysPanel(page).getByRole('button', { name: 'Add a passkey' }).click();
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await dialog.getByRole('alert').getByText('This passkey is already added to your account.').waitFor();
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached' });
        assert.equal((await authenticator.credentials()).length, 1);
        assert.equal(await row.count(), 1);

        // Rename: the server's refusal of the name is shown at the field.
        await page.getByRole('button', { name: 'Rename Work laptop' }).click();
        const rename = page.getByRole('dialog', { name: 'Rename the passkey' });
        assert.equal(await rename.getByLabel('Name').inputValue(), 'Work laptop');
        await rename.getByLabel('Name').fill('Bad\u0007name');
        await rename.getByRole('button', { name: 'Save' }).click();
        await rename.getByText('Use 1 to 50 characters, without control characters.').waitFor();
        await rename.getByLabel('Name').fill('Desk key');
        await rename.getByRole('button', { name: 'Save' }).click();
        await page.getByText('The passkey is renamed.').waitFor();
        await row.filter({ hasText: 'Desk key' }).waitFor();
        // Focus went back to the button that opened the dialog.
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        await until(async () => (await focusedText(page)) === 'Rename', 'focus back on Rename');

        // Remove: asked first; Cancel keeps it.
        await page.getByRole('button', { name: 'Remove Desk key' }).click();
        const question = page.getByRole('alertdialog', { name: 'Remove this passkey?' });
        await question.getByText(/no longer be able to sign in with “Desk key”/).waitFor();
        await question.getByRole('button', { name: 'Cancel' }).click();
        await question.waitFor({ state: 'detached' });
        await row.filter({ hasText: 'Desk key' }).waitFor();
        await page.getByRole('button', { name: 'Remove Desk key' }).click();
        await question.getByRole('button', { name: 'Remove' }).click();
        await page.getByText('The passkey is removed.').waitFor();
        await passkeysPanel(page).getByText('You have no passkeys yet.').waitFor();
      },
      [failedResource(400)],
    ));

  it('keeps the only way to sign in of a user without a password', () =>
    e2e.withPage(
      async ({ page }) => {
        const email = await newUser('acme', null);
        await openScreen(page, email);
        await addPasskey(page, 'Only key');
        await page.getByRole('button', { name: 'Remove Only key' }).click();
        const question = page.getByRole('alertdialog', { name: 'Remove this passkey?' });
        await question.getByRole('button', { name: 'Remove' }).click();
        await question
          .getByRole('alert')
          .getByText('This is your only way to sign in: add a password or another passkey first.')
          .waitFor();
        await screenshot(page, 'e2e/security', 'only-sign-in');
        await question.getByRole('button', { name: 'Cancel' }).click();
        await question.waitFor({ state: 'detached' });
        await passkeysPanel(page).getByRole('listitem').filter({ hasText: 'Only key' }).waitFor();
      },
      [failedResource(409)],
    ));

  it('sets up the authenticator app (a wrong code first), shows the codes once, makes new ones', () =>
    e2e.withPage(
      async ({ page }) => {
        const email = await newUser();
        await openScreen(page, email);
        await appPanel(page).getByText('Two-step sign-in is off.').waitFor();
        assert.equal(await codesPanel(page).count(), 0);

        await appPanel(page).getByRole('button', { name: 'Set up' }).click();
        await appPanel(page)
          .getByRole('img', { name: 'QR code of the key for your authenticator app' })
          .waitFor();
        const secret = (await appPanel(page).locator('code.secret').textContent())!.replace(/\s/g, '');
        const right = codeFor(direct(), secret);
        const code = appPanel(page).getByLabel('Code from the app');
        // Focus moved from the button (now gone) to the field.
        await until(() => code.evaluate((field) => field.matches(':focus')), 'focus on the code field');
        assert.equal(await code.getAttribute('inputmode'), 'numeric');
        assert.equal(await code.getAttribute('autocomplete'), 'one-time-code');
        await code.fill(right === '000000' ? '111111' : '000000');
        await appPanel(page).getByRole('button', { name: 'Turn on' }).click();
        await appPanel(page).getByText('This code is not valid. Enter the code the app shows now.').waitFor();
        assert.equal(await code.getAttribute('aria-invalid'), 'true');
        await code.fill(right);
        await appPanel(page).getByRole('button', { name: 'Turn on' }).click();

        // The codes, once, with focus on their heading.
        const codes = page.getByRole('list', { name: 'Your recovery codes' });
        await codes.waitFor();
        assert.equal(await codes.getByRole('listitem').count(), 10);
        const first = await codes.getByRole('listitem').allTextContents();
        await until(async () => (await focusedText(page)) === 'Your recovery codes', 'focus on the codes');
        await page.getByRole('button', { name: 'Done' }).click();
        await codes.waitFor({ state: 'detached' });
        await appPanel(page).getByText('Two-step sign-in is on.').waitFor();
        await codesPanel(page).getByText('10 unused codes left').waitFor();
        assert.equal(await codesPanel(page).getByRole('alert').count(), 0);

        // New codes: a wrong password is refused at the field, the right one gives ten new codes.
        await codesPanel(page).getByRole('button', { name: 'Make new codes' }).click();
        const dialog = page.getByRole('dialog', { name: 'Make new recovery codes' });
        await dialog.getByText('Your current codes stop working when you make new ones.').waitFor();
        // Without a passkey there is no passkey to offer.
        assert.equal(await dialog.getByRole('button', { name: 'Use a passkey instead' }).count(), 0);
        const password = dialog.getByLabel('Current password');
        await password.fill('not-the-password');
        await dialog.getByRole('button', { name: 'Make new codes' }).click();
        await dialog.getByText('The password is not correct.').waitFor();
        assert.equal(await password.getAttribute('aria-invalid'), 'true');
        await screenshot(page, 'e2e/security', 'reauth-wrong-password');
        await password.fill(DEMO_PASSWORD);
        await dialog.getByRole('button', { name: 'Make new codes' }).click();
        await dialog.waitFor({ state: 'detached' });
        await codes.waitFor();
        const second = await codes.getByRole('listitem').allTextContents();
        assert.equal(second.length, 10);
        assert.equal(second.filter((c) => first.includes(c)).length, 0, 'the new codes are all new');
        await until(async () => (await focusedText(page)) === 'Your recovery codes', 'focus on the codes');
        await page.getByRole('button', { name: 'Done' }).click();
        await codesPanel(page).getByText('10 unused codes left').waitFor();

        // Codes used up elsewhere (sign-ins): few left is a warning, in the language's plural forms.
        const db = e2e.server.server.db.kysely;
        const user = await db
          .selectFrom('users')
          .select('id')
          .where('email', '=', email)
          .executeTakeFirstOrThrow();
        const spend = async (left: number) => {
          const unused = await db
            .selectFrom('recovery_codes')
            .select('code_hash')
            .where('user_id', '=', user.id)
            .where('used_at', 'is', null)
            .execute();
          for (const { code_hash } of unused.slice(left))
            await db
              .updateTable('recovery_codes')
              .set({ used_at: Date.now() })
              .where('code_hash', '=', code_hash)
              .execute();
        };
        await spend(4);
        await page.reload();
        await codesPanel(page).getByText('4 unused codes left').waitFor();
        assert.equal(await codesPanel(page).getByRole('alert').count(), 0);
        await spend(1);
        await page.reload();
        await codesPanel(page).getByText('1 unused code left').waitFor();
        await codesPanel(page)
          .getByRole('alert')
          .getByText('Only a few codes are left. Make new codes before they run out.')
          .waitFor();
        await screenshot(page, 'e2e/security', 'few-codes');
      },
      [failedResource(400)],
    ));

  it('turns two-step sign-in off after a passkey proves it is the user', () =>
    e2e.withPage(async ({ page }) => {
      const email = await newUser();
      const authenticator = await openScreen(page, email);
      await addPasskey(page, 'Laptop');
      await setUpApp(page);
      await page.getByRole('button', { name: 'Done' }).click();
      await appPanel(page).getByText('Two-step sign-in is on.').waitFor();

      await appPanel(page).getByRole('button', { name: 'Turn off' }).click();
      const dialog = page.getByRole('dialog', { name: 'Turn off two-step sign-in' });
      // The prompt turned down: calmly said, still on.
      await authenticator.setUserVerified(false);
      await dialog.getByRole('button', { name: 'Use a passkey instead' }).click();
      await dialog
        .getByRole('status')
        .getByText('The passkey was not used. Try again, or enter your password.')
        .waitFor();
      await authenticator.setUserVerified(true);
      await dialog.getByRole('button', { name: 'Use a passkey instead' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Two-step sign-in is off.').first().waitFor();
      // The button that opened the dialog is gone: focus is on the panel's heading.
      await until(async () => (await focusedText(page)) === 'Authenticator app', 'focus on the heading');
      await appPanel(page).getByRole('button', { name: 'Set up' }).waitFor();
      assert.equal(await codesPanel(page).count(), 0);
      // The passkey was used: the list says when.
      await page.reload();
      await passkeysPanel(page)
        .getByRole('listitem')
        .getByText(/^Last used /)
        .waitFor();
    }));

  it('asks a user without a password for a passkey only, to make new codes', () =>
    e2e.withPage(async ({ page }) => {
      const email = await newUser('acme', null);
      await openScreen(page, email);
      await addPasskey(page, 'Phone');
      await setUpApp(page);
      await page.getByRole('button', { name: 'Done' }).click();
      await codesPanel(page).getByRole('button', { name: 'Make new codes' }).click();
      const dialog = page.getByRole('dialog', { name: 'Make new recovery codes' });
      await dialog.getByText('To confirm it is you, use one of your passkeys.').waitFor();
      assert.equal(await dialog.getByLabel('Current password').count(), 0);
      await screenshot(page, 'e2e/security', 'reauth-passkey-only');
      await dialog.getByRole('button', { name: 'Use a passkey', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    }));

  it('says when a list cannot be loaded, and loads it again on request', () =>
    e2e.withPage(
      async ({ page }) => {
        for (const path of ['/api/user/passkeys', '/api/user/two-step'])
          await page.route(
            (url) => url.pathname === path,
            (route) => route.fulfill({ status: 503, json: { message: 'unavailable' } }),
            { times: 1 },
          );
        await openScreen(page, await newUser());
        for (const panel of [passkeysPanel(page), appPanel(page)]) {
          await panel.getByRole('alert').getByText('Something went wrong. Please try again.').waitFor();
          await panel.getByRole('button', { name: 'Try again' }).click();
        }
        await passkeysPanel(page).getByText('You have no passkeys yet.').waitFor();
        await appPanel(page).getByText('Two-step sign-in is off.').waitFor();
      },
      [failedResource(503)],
    ));

  it('says so instead of offering to add a passkey in a browser without WebAuthn', () =>
    e2e.withPage(async ({ page }, context) => {
      await context.addInitScript(() => {
        delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
      });
      await openScreen(page, await newUser());
      await passkeysPanel(page)
        .getByText(
          'This browser cannot use passkeys. To add one, open this page in a browser that supports them.',
        )
        .waitFor();
      assert.equal(await page.getByRole('button', { name: 'Add a passkey' }).count(), 0);
      // The authenticator app does not need WebAuthn.
      await appPanel(page).getByRole('button', { name: 'Set up' }).waitFor();
    }));

  it('offers no turning off when the team requires two-step sign-in', () =>
    e2e.withPage(
      async ({ page }) => {
        const email = await newUser('umbrella');
        await openScreen(page, email, 'umbrella');
        const secret = await setUpApp(page);
        await page.getByRole('button', { name: 'Done' }).click();
        await appPanel(page).getByRole('button', { name: 'Turn off' }).waitFor();

        const db = e2e.server.server.db.kysely;
        const requires = (on: boolean) =>
          db
            .updateTable('teams')
            .set({ require_two_step: on ? 1 : 0 })
            .where('name', '=', 'umbrella')
            .execute();
        await requires(true);
        try {
          // The team starts requiring it while the screen is open: the server refuses, the dialog says why.
          await appPanel(page).getByRole('button', { name: 'Turn off' }).click();
          const dialog = page.getByRole('dialog', { name: 'Turn off two-step sign-in' });
          await dialog.getByLabel('Current password').fill(DEMO_PASSWORD);
          await dialog.getByRole('button', { name: 'Turn off' }).click();
          await dialog
            .getByRole('alert')
            .getByText('Your team requires two-step sign-in, so it cannot be turned off.')
            .waitFor();
          await dialog.getByRole('button', { name: 'Cancel' }).click();
          await dialog.waitFor({ state: 'detached' });

          await page.reload();
          await appPanel(page).getByText('Two-step sign-in is on.').waitFor();
          await appPanel(page)
            .getByText('Your team requires two-step sign-in, so it cannot be turned off.')
            .waitFor();
          assert.equal(await appPanel(page).getByRole('button', { name: 'Turn off' }).count(), 0);
          // The recovery codes stay theirs to renew.
          await codesPanel(page).getByRole('button', { name: 'Make new codes' }).waitFor();

          // A new phone: set up on a new device, after the password; the new app's code puts it in force.
          await appPanel(page).getByRole('button', { name: 'Set up on a new device' }).click();
          const move = page.getByRole('dialog', { name: 'Set up on a new device' });
          await move.getByLabel('Current password').fill(DEMO_PASSWORD);
          await move.getByRole('button', { name: 'Continue' }).click();
          await move.waitFor({ state: 'detached' });
          await appPanel(page)
            .getByRole('img', { name: 'QR code of the key for your authenticator app' })
            .waitFor();
          const moved = (await appPanel(page).locator('code.secret').textContent())!.replace(/\s/g, '');
          assert.notEqual(moved, secret);
          await screenshot(page, 'e2e/security', 'move-app');
          // The code of the step the set-up used is spent: the new app's comes from the next step.
          e2e.server.clock.advance(30_000);
          const code = appPanel(page).getByLabel('Code from the app');
          await code.fill(codeFor(direct(), secret));
          await appPanel(page).getByRole('button', { name: 'Use the new device' }).click();
          await appPanel(page).getByText('This code is not valid.', { exact: false }).waitFor();
          await code.fill(codeFor(direct(), moved));
          await appPanel(page).getByRole('button', { name: 'Use the new device' }).click();
          await page
            .getByText('Two-step sign-in now uses your new device.', { exact: false })
            .first()
            .waitFor();
          await appPanel(page).getByText('Two-step sign-in is on.').waitFor();

          // A member without it yet is told to set it up.
          const other = await sessionFor(e2e.server.server.app, await newUser('umbrella'), 'umbrella');
          await signInContext(page.context(), other.token);
          await page.reload();
          await appPanel(page)
            .getByText(/^Your team requires two-step sign-in: set it up now/)
            .waitFor();
          await appPanel(page).getByRole('button', { name: 'Set up' }).waitFor();
        } finally {
          e2e.server.clock.offset = 0;
          await requires(false);
        }
      },
      [failedResource(400), failedResource(409)],
    ));
});
