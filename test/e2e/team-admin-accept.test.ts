/**
 * Accepting an invitation, end to end: ada (acme's owner) invites through the API, the link comes by
 * real SMTP, and the invitee opens it in the portal as a person would.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { failedResource, screenshot, signInContext, useE2E } from '../support/browser';
import { TestSmtp } from '../support/smtp';
import { sessionFor, tokenFor } from '../support/test-server';
import { appOf, codeFor } from '../support/two-step';
import { readLocale, translator } from '../support/texts';

let smtp: TestSmtp | undefined;
// The server's settings name the SMTP server, so it starts first, in the same hook.
const e2e = useE2E(async () => {
  smtp = await TestSmtp.start();
  return { SMTP_URL: smtp.url, LOGIN_ADDRESS_LIMIT: '10000' };
});
after(() => smtp?.close());
const { withPage } = e2e;
const t = translator(readLocale('en'));
/** The refusals these screens are made of (Chromium logs each as a console error). */
const REFUSED = [failedResource(400), failedResource(410)];

/** A JSON call to the running server with ada's bearer token, as the team screen makes it. */
async function asAda(method: string, path: string, body?: unknown): Promise<Response> {
  const { accessToken } = await tokenFor(e2e.server.server.app, 'ada@acme.test');
  return fetch(`${e2e.server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Invite an address into acme as an EDITOR; the invitation's id and the link from the mail. */
async function invite(email: string): Promise<{ id: string; link: string }> {
  const response = await asAda('POST', '/api/team/invitations', { email, permissions: ['EDITOR'] });
  assert.equal(response.status, 201, await response.clone().text());
  const { id } = (await response.json()) as { id: string };
  const mail = await smtp!.next(email, /invited you to Acme/);
  assert.ok(mail.link, mail.text);
  return { id, link: mail.link };
}

/** The invitation screen, once it has inspected its link. */
async function openInvite(page: Page, link: string) {
  await page.goto(link);
  await page.getByRole('heading', { level: 1, name: t('invite.title', { team: 'Acme' }) }).waitFor();
}

async function fillForm(page: Page, name: string, password: string, confirm = password) {
  await page.getByLabel(t('invite.name')).fill(name);
  await page.getByLabel(t('login.reset.newPassword'), { exact: true }).fill(password);
  await page.getByLabel(t('login.reset.confirmPassword')).fill(confirm);
  await page.getByRole('button', { name: t('invite.submit') }).click();
}

/** The screen of a link that no longer works: the reason, and only the way to the sign-in screen. */
async function expectGone(page: Page, link: string, reason: string) {
  await page.goto(link);
  await page.getByRole('heading', { level: 1, name: t('invite.goneTitle') }).waitFor();
  await page
    .getByRole('alert')
    .filter({ hasText: t(`invite.gone.${reason}`) })
    .waitFor();
  const portal = page.locator('acct-portal main');
  assert.equal(await portal.getByRole('textbox').count(), 0);
  assert.equal(await portal.getByRole('button').count(), 0);
  assert.equal(
    await portal.getByRole('link', { name: t('invite.signIn') }).getAttribute('href'),
    '/login/acme',
  );
}

describe('accepting an invitation', () => {
  before(async () => {
    // Room for every invitation of this file.
    const response = await asAda('PUT', '/api/team/seat-limit', { limit: 50 });
    assert.equal(response.status, 200, await response.text());
  });

  it('shows the team and address, keeps a bad password at its field, then joins and signs in', async () => {
    const { id, link } = await invite('grace@acme.test');
    assert.ok(link.startsWith(`${e2e.server.url}/login/acme/invite?id=`), link);
    await withPage(async ({ page }) => {
      await openInvite(page, link);
      await page.getByText('grace@acme.test').waitFor();
      // Password managers file the new password under the invited address.
      assert.equal(await page.locator('input[autocomplete="username"]').inputValue(), 'grace@acme.test');
      assert.ok(
        await page
          .getByRole('button', { name: t('login.providers.generic', { name: 'Google' }) })
          .isVisible(),
      );
      await screenshot(page, 'e2e/invite', 'form');

      // Too short: the server's policy message, at the password field, which has focus.
      await fillForm(page, 'Grace Hopper', 'short');
      const password = page.getByLabel(t('login.reset.newPassword'), { exact: true });
      await page.waitForFunction(
        () => {
          let active = document.activeElement;
          while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
          return active?.getAttribute('name') === 'new-password';
        },
        undefined,
        { timeout: 5000 },
      );
      assert.equal(await password.getAttribute('aria-invalid'), 'true');
      const described = await password.evaluate((input) => {
        const root = input.getRootNode() as ShadowRoot;
        return (input.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((ref) => root.getElementById(ref)?.textContent ?? '')
          .join(' ');
      });
      assert.match(described, /The password must have at least 8 characters\./);
      await screenshot(page, 'e2e/invite', 'too-short');

      // A name left empty is refused here, at its field.
      await fillForm(page, '   ', 'grace chose a long one');
      await page.getByText(t('invite.nameRequired')).waitFor();

      await fillForm(page, 'Grace Hopper', 'grace chose a long one');
      await page.waitForURL(`${e2e.server.url}/manage`);
      await page
        .getByRole('region', { name: 'Personal info' })
        .getByText('Grace Hopper', { exact: true })
        .waitFor();
      await page.locator('acct-portal .header-name').getByText('Grace Hopper').waitFor();
    }, REFUSED);

    const members = (await (await asAda('GET', '/api/team/members?q=grace')).json()) as {
      members: Array<{ email: string; name: string; permissions: string[] }>;
    };
    assert.deepEqual(
      members.members.map((m) => [m.email, m.name, m.permissions]),
      [['grace@acme.test', 'Grace Hopper', ['EDITOR']]],
    );
    const open = (await (await asAda('GET', '/api/team/invitations')).json()) as {
      invitations: Array<{ id: string }>;
    };
    assert.ok(!open.invitations.some((invitation) => invitation.id === id), 'still listed as open');

    await withPage(async ({ page }) => {
      await expectGone(page, link, 'used');
      await screenshot(page, 'e2e/invite', 'used');
      await page.getByRole('link', { name: t('invite.signIn') }).click();
      await page.waitForURL(`${e2e.server.url}/login/acme`);
      // The new member signs in with the password chosen on the invitation screen.
      await page.getByLabel(t('login.email')).fill('grace@acme.test');
      await page.getByLabel(t('login.password')).fill('grace chose a long one');
      await page.getByRole('button', { name: t('login.continue') }).click();
      await page.locator('acct-portal .header-name').getByText('Grace Hopper').waitFor();
    }, REFUSED);
  });

  it('says a revoked link and a resent-over link no longer work', async () => {
    const revoked = await invite('rita@acme.test');
    const deleted = await asAda('DELETE', `/api/team/invitations/${revoked.id}`);
    assert.equal(deleted.status, 204);
    const first = await invite('sam@acme.test');
    const resent = await asAda('POST', `/api/team/invitations/${first.id}/resend`);
    assert.equal(resent.status, 200);
    const second = await smtp!.next('sam@acme.test', /invited you to Acme/);
    await withPage(async ({ page }) => {
      await expectGone(page, revoked.link, 'revoked');
      await screenshot(page, 'e2e/invite', 'revoked');
      await expectGone(page, first.link, 'superseded');
      // The newer link works.
      await openInvite(page, second.link!);
      await page.getByText('sam@acme.test').waitFor();
    }, REFUSED);
  });

  it('says a link with a wrong token or none is not valid', async () => {
    const { link } = await invite('tess@acme.test');
    const wrong = new URL(link);
    wrong.searchParams.set('token', 'x'.repeat(43));
    await withPage(async ({ page }) => {
      await expectGone(page, wrong.href, 'invalid');
      wrong.searchParams.delete('token');
      await expectGone(page, wrong.href, 'invalid');
    }, REFUSED);
  });

  it('joins with Google when the provider vouches for the invited address', async () => {
    const { link } = await invite('noor@acme.test');
    await withPage(async ({ page }) => {
      await openInvite(page, link);
      await page.getByRole('button', { name: t('login.providers.generic', { name: 'Google' }) }).click();
      await page.getByLabel('Account').fill('noor@acme.test');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${e2e.server.url}/manage`);
      await page.locator('acct-portal .header-name').waitFor();
      await page
        .getByRole('region', { name: 'Personal info' })
        .getByRole('definition')
        .filter({ hasText: 'noor@acme.test' })
        .first()
        .waitFor();
      await expectGone(page, link, 'used');
    }, REFUSED);
    const members = (await (await asAda('GET', '/api/team/members?q=noor')).json()) as {
      members: Array<{ email: string; methods: string[] }>;
    };
    assert.equal(members.members.length, 1);
    assert.equal(members.members[0]!.email, 'noor@acme.test');
  });

  it('sends a provider round trip that cannot join back to the sign-in screen, saying why', async () => {
    const { id, link } = await invite('uma@acme.test');
    await withPage(async ({ page }) => {
      // Another address at the provider: refused, and the invitation stays open.
      await openInvite(page, link);
      await page.getByRole('button', { name: t('login.providers.generic', { name: 'Google' }) }).click();
      await page.getByLabel('Account').fill('stranger');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.pathname === '/login/acme' && url.searchParams.has('Error'));
      await page
        .getByRole('alert')
        .filter({ hasText: t('login.errors.ForbiddenSignup') })
        .waitFor();
    }, REFUSED);
    // Revoked while the invitee was at the provider (a new browser: the stand-in remembers its sign-in).
    await withPage(async ({ page }) => {
      await openInvite(page, link);
      await page.getByRole('button', { name: t('login.providers.generic', { name: 'Google' }) }).click();
      await page.getByLabel('Account').waitFor();
      assert.equal((await asAda('DELETE', `/api/team/invitations/${id}`)).status, 204);
      await page.getByLabel('Account').fill('uma@acme.test');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.searchParams.get('Error') === 'InvitationGone');
      await page
        .getByRole('alert')
        .filter({ hasText: t('login.errors.InvitationGone') })
        .waitFor();
    }, REFUSED);
  });

  it('says an expired link has expired (the server a week and a day on)', async () => {
    const { link } = await invite('otto@acme.test');
    const clock = e2e.server.clock;
    clock.advance(8 * 24 * 3600 * 1000);
    try {
      await withPage(async ({ page }) => {
        await expectGone(page, link, 'expired');
        await screenshot(page, 'e2e/invite', 'expired');
      }, REFUSED);
    } finally {
      clock.advance(-8 * 24 * 3600 * 1000);
    }
  });

  /** Set up the authenticator app the team requires, see the recovery codes, go on; then on /manage. */
  async function enrolAndContinue(page: Page, email: string) {
    await page.getByRole('heading', { name: t('twoStep.enrolTitle') }).waitFor();
    assert.notEqual(new URL(page.url()).pathname, '/manage', 'no session before the second step');
    const key = await page.locator('acct-portal .totp-key .secret').textContent();
    const code = codeFor(appOf(e2e.server), key!.replace(/\s/g, ''));
    await page.getByLabel(t('twoStep.codeLabel')).fill(code);
    await page.getByRole('button', { name: t('twoStep.enrolConfirm') }).click();
    await page.getByRole('heading', { name: t('recoveryCodes.title') }).waitFor();
    assert.equal(await page.locator('acct-portal .recovery-codes li').count(), 10);
    await page.getByRole('button', { name: t('login.continue') }).click();
    await page.waitForURL(`${e2e.server.url}/manage`);
    await page
      .getByRole('region', { name: 'Personal info' })
      .getByRole('definition')
      .filter({ hasText: email })
      .first()
      .waitFor();
  }

  it('has a joiner set up two-step sign-in first when the team requires it', async () => {
    const db = e2e.server.server.db.kysely;
    await db.updateTable('teams').set({ require_two_step: 1 }).where('name', '=', 'acme').execute();
    try {
      const byPassword = await invite('vera@acme.test');
      await withPage(async ({ page }) => {
        await openInvite(page, byPassword.link);
        await fillForm(page, 'Vera Rubin', 'vera chose a long one');
        await enrolAndContinue(page, 'vera@acme.test');
      }, REFUSED);
      const byGoogle = await invite('wim@acme.test');
      await withPage(async ({ page }) => {
        await openInvite(page, byGoogle.link);
        await page.getByRole('button', { name: t('login.providers.generic', { name: 'Google' }) }).click();
        await page.getByLabel('Account').fill('wim@acme.test');
        await page.getByRole('button', { name: 'Continue' }).click();
        await enrolAndContinue(page, 'wim@acme.test');
      }, REFUSED);
      const on = await db
        .selectFrom('totp_secrets')
        .innerJoin('users', 'users.id', 'totp_secrets.user_id')
        .select(['users.email', 'totp_secrets.confirmed_at'])
        .where('users.email', 'in', ['vera@acme.test', 'wim@acme.test'])
        .execute();
      assert.equal(on.filter((row) => row.confirmed_at !== null).length, 2);
    } finally {
      await db.updateTable('teams').set({ require_two_step: 0 }).where('name', '=', 'acme').execute();
    }
  });

  it('tells someone signed in who they are and signs them out only when asked', async () => {
    const { link } = await invite('xena@acme.test');
    await withPage(async ({ page }, context) => {
      await signInContext(context, (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
      await openInvite(page, link);
      const notice = page.getByText(/You are signed in as/);
      await notice.waitFor();
      assert.match((await notice.textContent()) ?? '', /ada@acme\.test/);
      assert.equal(await page.getByLabel(t('invite.name')).count(), 0, 'no join form yet');
      await screenshot(page, 'e2e/invite', 'signed-in');
      // Ada is still signed in: nothing was replaced behind her back.
      await page.locator('acct-portal .header-name').waitFor();
      await page.getByRole('button', { name: t('invite.signOutAndContinue') }).click();
      await page.getByLabel(t('invite.name')).waitFor();
      await fillForm(page, 'Xena Ward', 'xena chose a long one');
      await page.waitForURL(`${e2e.server.url}/manage`);
      await page.locator('acct-portal .header-name').getByText('Xena Ward').waitFor();
    }, REFUSED);
  });
});
