/**
 * The team screen (/manage/team) against the real server: seats and storage from the database,
 * invitations mailed over SMTP (sent, resent — the old link refused — and revoked), the seat limit,
 * the team's sign-in methods as the sign-in screen sees them, statuses by the server's clock, who may
 * see the screen at all, and the keyboard alone.
 */
import assert from 'node:assert/strict';
import { after, beforeEach, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { failedResource, screenshot, signInContext, useE2E } from '../support/browser';
import { TestSmtp } from '../support/smtp';
import { addUser } from '../support/team-admin';
import { sessionFor, tokenFor, type TestApp, type TestServer } from '../support/test-server';

let smtp: TestSmtp | undefined;
// The server's settings name the SMTP server, so it starts first, in the same hook.
const e2e = useE2E(async () => {
  smtp = await TestSmtp.start();
  return { SMTP_URL: smtp.url, LOGIN_ADDRESS_LIMIT: '10000' };
});
after(() => smtp?.close());
const inbox = () => smtp!;
const { withPage } = e2e;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A JSON call to the server as an element makes it: a bearer token, no cookie. */
async function api(server: TestServer, method: string, url: string, token: string | null, body?: unknown) {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const ownerToken = async () => (await tokenFor(e2e.server.server.app, 'ada@acme.test')).accessToken;

/** Each test starts from acme as seeded: no open invitations, a roomy seat limit, every method on. */
async function resetAcme() {
  const token = await ownerToken();
  const { body } = await api(e2e.server, 'GET', '/api/team/invitations', token);
  for (const invitation of (body?.invitations ?? []) as Array<{ id: string }>)
    await api(e2e.server, 'DELETE', `/api/team/invitations/${invitation.id}`, token);
  await api(e2e.server, 'PUT', '/api/team/seat-limit', token, { limit: 10 });
  await api(e2e.server, 'PATCH', '/api/team/login-options', token, {
    local: true,
    google: true,
    azure: true,
    auth0: true,
    apple: true,
  });
}

async function openAs(page: Page, email: string, path = '/manage/team') {
  await signInContext(page.context(), (await sessionFor(e2e.server.server.app, email)).token);
  await page.goto(`${e2e.server.url}${path}`);
}

async function openTeam(page: Page, email = 'ada@acme.test', path = '/manage/team') {
  await openAs(page, email, path);
  await page.getByRole('heading', { level: 2, name: 'Team management' }).waitFor();
}

const dialog = (page: Page) => page.locator('acct-portal dialog[open]');
const invites = (page: Page) => page.getByRole('region', { name: 'Pending invites' });
const activity = (page: Page) => page.getByRole('region', { name: 'Recent admin actions' });

/** The invitation link of a mail: `/login/acme/invite?id=…&token=…`. */
function linkOf(mail: { link: string | null }): { id: string; token: string } {
  assert.ok(mail.link, 'the mail has a link');
  const url = new URL(mail.link);
  assert.equal(url.pathname, '/login/acme/invite');
  const id = url.searchParams.get('id');
  const token = url.searchParams.get('token');
  assert.ok(id && token, mail.link);
  return { id, token };
}

const inspect = (link: { id: string; token: string }) =>
  api(e2e.server, 'POST', '/api/invitations/inspect', null, {
    teamName: 'acme',
    invitationId: link.id,
    token: link.token,
  });

async function inviteThroughDialog(page: Page, email: string) {
  await invites(page).getByRole('button', { name: 'Invite' }).click();
  const form = dialog(page);
  await form.getByRole('heading', { name: 'Invite someone' }).waitFor();
  await form.getByLabel('Email').fill(email);
  await form.getByRole('button', { name: 'Send invitation' }).click();
}

/** The element that has focus, looking into shadow roots: its accessible text or label. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.getAttribute('aria-label') ?? active?.textContent?.trim() ?? '';
  });

/** Wait until a switch shows `checked` and takes clicks again (its change is saved). */
async function settled(toggle: Locator, checked: boolean) {
  for (let i = 0; i < 100; i++) {
    if ((await toggle.getAttribute('aria-checked')) === String(checked) && (await toggle.isEnabled())) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`the switch did not settle at ${checked}`);
}

async function tabTo(page: Page, name: string, most = 40) {
  for (let i = 0; i < most; i++) {
    if ((await focused(page)) === name) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached "${name}" (at "${await focused(page)}")`);
}

describe('the team screen', () => {
  beforeEach(resetAcme);

  it("shows ada (acme's owner) the team's real seats, storage and support contact", async () => {
    await withPage(async ({ page }) => {
      await openTeam(page);
      const team = page.getByRole('region', { name: 'Team management' });
      // acme: ada, bob and Lee Locke; no invitation; a limit of 10.
      await team.getByText('3/10 users', { exact: true }).waitFor();
      const users = page.getByRole('progressbar', { name: 'User limit' });
      assert.equal(await users.getAttribute('aria-valuenow'), '30');
      await team.getByText('90/100 GB used', { exact: true }).waitFor();
      const storage = page.getByRole('progressbar', { name: 'Storage limit' });
      assert.equal(await storage.getAttribute('aria-valuenow'), '90');
      assert.match((await storage.getAttribute('class')) ?? '', /limit-negative/);
      await invites(page).getByText('No pending invitations.').waitFor();
      const support = page.getByRole('region', { name: 'Support' });
      await support.getByText('Priya Natarajan').waitFor();
      assert.equal(
        await support.getByRole('link', { name: 'priya.natarajan@accounts.example' }).getAttribute('href'),
        'mailto:priya.natarajan@accounts.example',
      );
      assert.equal(
        await support.getByRole('link', { name: '+44 20 7946 0321' }).getAttribute('href'),
        'tel:+442079460321',
      );
      // The owner may change the limit; the sidebar lists the admin screens.
      assert.equal(await page.getByRole('button', { name: 'Manage user limit' }).isEnabled(), true);
      const nav = page.getByRole('navigation', { name: 'Account' });
      for (const [name, href] of [
        ['Team', '/manage/team'],
        ['Users', '/manage/user'],
        ['Groups', '/manage/group'],
      ] as const) {
        assert.equal(await nav.getByRole('link', { name, exact: true }).getAttribute('href'), href);
      }
      await screenshot(page, 'e2e/team', 'team');

      // A contrast theme (forced colours) keeps system colours only; what the brand's colours alone drew
      // is drawn again: a switch's state, a limit's share, the current page's marker.
      await page.emulateMedia({ forcedColors: 'active' });
      const drawn = (locator: Locator, property: string, child = false) =>
        locator.evaluate(
          (element, [name, inner]) =>
            getComputedStyle((inner ? element.firstElementChild : element)!).getPropertyValue(name),
          [property, child] as const,
        );
      const on = page.getByRole('switch', { name: 'Password' });
      const off = page.getByRole('switch', { name: 'Require two-step sign-in' });
      assert.equal(await on.getAttribute('aria-checked'), 'true');
      assert.equal(await off.getAttribute('aria-checked'), 'false');
      assert.notEqual(await drawn(on, 'background-color'), await drawn(off, 'background-color'));
      assert.notEqual(await drawn(on, 'background-color'), await drawn(on, 'background-color', true));
      assert.notEqual(await drawn(off, 'background-color'), await drawn(off, 'background-color', true));
      assert.notEqual(
        await drawn(storage, 'background-color'),
        await drawn(storage, 'background-color', true),
      );
      assert.notEqual(
        await drawn(nav.getByRole('link', { name: 'Team', exact: true }), 'border-inline-start-color'),
        await drawn(nav.getByRole('link', { name: 'Users', exact: true }), 'border-inline-start-color'),
      );
      await screenshot(page, 'e2e/team', 'team-forced-colors');
    });
  });

  it('invites by mail, resends (the old link stops working) and revokes after asking', async () => {
    await withPage(async ({ page }) => {
      await openTeam(page);
      await inviteThroughDialog(page, 'new.person@example.test');
      await page.getByText('Invitation sent to new.person@example.test').waitFor();
      await dialog(page).waitFor({ state: 'detached' });
      const first = linkOf(await inbox().next('new.person@example.test', /invited you to Acme/));
      assert.equal((await inspect(first)).status, 200);

      const row = invites(page).getByRole('listitem').filter({ hasText: 'new.person@example.test' });
      await row.getByText(/^Sent (this minute|1 minute ago)$/).waitFor();
      // The pending invitation holds a seat.
      await page.getByText('4/10 users', { exact: true }).waitFor();
      await activity(page).getByText('Invited new.person@example.test').waitFor();

      await row.getByRole('button', { name: 'Resend the invitation to new.person@example.test' }).click();
      await page.getByText('A new invitation was sent to new.person@example.test.').waitFor();
      const second = linkOf(await inbox().next('new.person@example.test', /invited you to Acme/));
      assert.notEqual(second.id, first.id);
      const old = await inspect(first);
      assert.equal(old.status, 410);
      assert.equal(old.body?.reason, 'superseded');
      assert.equal((await inspect(second)).status, 200);
      await activity(page).getByText('Resent the invitation to new.person@example.test').waitFor();
      await screenshot(page, 'e2e/team', 'invitation-sent');

      await row.getByRole('button', { name: 'Revoke the invitation for new.person@example.test' }).click();
      const question = page.getByRole('alertdialog', { name: 'Revoke this invitation?' });
      await question.getByText('The link sent to new.person@example.test will stop working').waitFor();
      // Cancel keeps it.
      await question.getByRole('button', { name: 'Cancel' }).click();
      await question.waitFor({ state: 'detached' });
      await row.waitFor();
      await row.getByRole('button', { name: 'Revoke the invitation for new.person@example.test' }).click();
      await question.getByRole('button', { name: 'Revoke' }).click();
      await row.waitFor({ state: 'detached' });
      await invites(page).getByText('No pending invitations.').waitFor();
      await page.getByText('3/10 users', { exact: true }).waitFor();
      const revoked = await inspect(second);
      assert.equal(revoked.status, 410);
      assert.equal(revoked.body?.reason, 'revoked');
    });
  });

  it('shows each refused invitation at the field it concerns', async () => {
    await withPage(
      async ({ page }) => {
        await openTeam(page);
        await inviteThroughDialog(page, 'bob@acme.test');
        const form = dialog(page);
        const email = form.getByLabel('Email');
        await form.getByText('This address already belongs to a member of the team.').waitFor();
        assert.equal(await email.getAttribute('aria-invalid'), 'true');
        assert.match((await email.getAttribute('aria-describedby')) ?? '', /error/);
        await screenshot(page, 'e2e/team', 'invite-already-member');

        await email.fill('not-an-address');
        await form.getByRole('button', { name: 'Send invitation' }).click();
        await form.getByText('Enter a valid email address.').waitFor();

        await email.fill('twice@example.test');
        await form.getByRole('checkbox', { name: 'Editor' }).uncheck();
        await form.getByRole('button', { name: 'Send invitation' }).click();
        await form.getByText('Choose at least one permission.').waitFor();
        await form.getByRole('checkbox', { name: 'Approver' }).check();
        await form.getByRole('button', { name: 'Send invitation' }).click();
        await form.waitFor({ state: 'detached' });

        await inviteThroughDialog(page, 'twice@example.test');
        await dialog(page).getByText('This address already has a pending invitation.').waitFor();
      },
      [failedResource(409)],
    );
  });

  it('sets the seat limit (owners only), and an invitation beyond it is refused', async () => {
    await withPage(
      async ({ page }) => {
        await openTeam(page);
        await page.getByRole('button', { name: 'Manage user limit' }).click();
        const form = dialog(page);
        const limit = form.getByLabel('User limit');
        await limit.fill('abc');
        await form.getByRole('button', { name: 'Save limit' }).click();
        await form.getByText('Enter a whole number from 1 to 100,000.').waitFor();
        await limit.fill('2');
        await form.getByRole('button', { name: 'Save limit' }).click();
        await form
          .getByText('The limit cannot be lower than the number of users and pending invitations.')
          .waitFor();

        // Someone joins while the dialog is open: the screen's count is out of date, the server's 409 says so.
        // addUser reads only the database and the clock of the app it is given.
        const app = { db: e2e.server.server.db, clock: e2e.server.clock } as unknown as TestApp;
        await addUser(app, { email: 'late@acme.test', name: 'Late Joiner', permissions: ['SPOKE'] });
        await limit.fill('3');
        await form.getByRole('button', { name: 'Save limit' }).click();
        await form
          .getByText('The limit cannot be lower than the number of users and pending invitations.')
          .waitFor();
        assert.equal(await limit.getAttribute('aria-invalid'), 'true');
        await screenshot(page, 'e2e/team', 'limit-below-count');

        await limit.fill('5');
        await form.getByRole('button', { name: 'Save limit' }).click();
        await page.getByText('User limit saved').waitFor();
        await page.getByText('4/5 users', { exact: true }).waitFor();
        await activity(page).getByText('Set the user limit to 5').waitFor();

        await inviteThroughDialog(page, 'fifth@example.test');
        await dialog(page).waitFor({ state: 'detached' });
        await page.getByText('5/5 users', { exact: true }).waitFor();
        await inviteThroughDialog(page, 'sixth@example.test');
        await dialog(page).getByText('The team has no free user seat. Raise the user limit first.').waitFor();
        assert.equal(await dialog(page).getByLabel('Email').getAttribute('aria-invalid'), 'true');
        await screenshot(page, 'e2e/team', 'invite-seat-limit');
      },
      [failedResource(409)],
    );
    await e2e.server.server.db.kysely.deleteFrom('users').where('email', '=', 'late@acme.test').execute();
  });

  it("turns the team's sign-in methods on and off, never the last one", async () => {
    await withPage(
      async ({ page }) => {
        await openTeam(page);
        // Each method has one name: the settings' switches and the sign-in page's buttons agree.
        const names = await page
          .getByRole('switch')
          .evaluateAll((all) => all.map((toggle) => toggle.getAttribute('aria-label')));
        assert.equal(names[5], 'Passkeys');
        const before = await e2e.browser.newContext();
        try {
          const login = await before.newPage();
          await login.goto(`${e2e.server.url}/login/acme`);
          await login.getByLabel('Email').waitFor();
          for (const name of names.slice(1, 5))
            await login.getByRole('button', { name: `Sign in with ${name}`, exact: true }).waitFor();
          await login.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
        } finally {
          await before.close();
        }

        const passkeys = page.getByRole('switch', { name: 'Passkeys' });
        await passkeys.click();
        await settled(passkeys, false);
        await activity(page).getByText('Ada Lovelace turned off passkey sign-in').waitFor();

        const google = page.getByRole('switch', { name: 'Google' });
        assert.equal(await google.getAttribute('aria-checked'), 'true');
        await google.click();
        await settled(google, false);
        await activity(page).getByText('Ada Lovelace turned off Google sign-in').waitFor();
        const team = await api(e2e.server, 'GET', '/api/team/public/acme', null);
        assert.equal(team.body?.googleOptions, undefined);
        assert.ok(team.body?.localOptions);

        // A visitor's sign-in screen (someone signed in would be sent on from it).
        const visitor = await e2e.browser.newContext();
        try {
          const login = await visitor.newPage();
          let passkeyOptionCalls = 0;
          login.on('request', (request) => {
            if (request.url().includes('/account/passkey/options')) passkeyOptionCalls += 1;
          });
          await login.goto(`${e2e.server.url}/login/acme`);
          await login.getByLabel('Email').waitFor();
          await login.getByRole('button', { name: /Microsoft/ }).waitFor();
          await login.waitForLoadState('networkidle');
          assert.equal(await login.getByRole('button', { name: /Google/ }).count(), 0);
          // Passkeys off: no button (and no autofill ceremony, which would call for options).
          assert.equal(await login.getByRole('button', { name: /passkey/ }).count(), 0);
          assert.equal(passkeyOptionCalls, 0);
        } finally {
          await visitor.close();
        }

        await passkeys.click();
        await settled(passkeys, true);
        for (const name of ['Microsoft', 'Apple', 'Acme SSO']) {
          const toggle = page.getByRole('switch', { name });
          await toggle.click();
          await settled(toggle, false);
        }
        const local = page.getByRole('switch', { name: 'Password' });
        await local.click();
        await page.getByText('The team must keep at least one way to sign in.').waitFor();
        await settled(local, true);
        const after = await api(e2e.server, 'GET', '/api/team/public/acme', null);
        assert.ok(after.body?.localOptions);
        await screenshot(page, 'e2e/team', 'last-method');
      },
      [failedResource(409)],
    );
  });

  it("reads each invitation's status from its times, by the server's clock", async () => {
    const clock = e2e.server.clock;
    const inviteAt = async (email: string, ago: number) => {
      clock.advance(-ago);
      try {
        const token = await ownerToken();
        const answer = await api(e2e.server, 'POST', '/api/team/invitations', token, {
          email,
          permissions: ['EDITOR'],
        });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
      } finally {
        clock.advance(ago);
      }
    };
    await inviteAt('recent@example.test', 2 * HOUR + 60_000);
    await inviteAt('older@example.test', 2 * DAY + HOUR);
    // Whole days before now: the expiry falls on a date days away at any time of day.
    await inviteAt('waiting@example.test', 4 * DAY);
    await inviteAt('tomorrow@example.test', 6 * DAY);
    await inviteAt('expired@example.test', 8 * DAY);
    await withPage(async ({ page }) => {
      await openTeam(page);
      const status = (email: string) =>
        invites(page).getByRole('listitem').filter({ hasText: email }).locator('time');
      await status('recent@example.test').getByText('Sent 2 hours ago', { exact: true }).waitFor();
      // By the date: 49 hours ago is three days back in the first hour of a day.
      await status('older@example.test')
        .getByText(/^Sent [23] days ago$/)
        .waitFor();
      await status('waiting@example.test').getByText('Expires in 3 days', { exact: true }).waitFor();
      await status('tomorrow@example.test').getByText('Expires tomorrow', { exact: true }).waitFor();
      await status('expired@example.test').getByText('Expired', { exact: true }).waitFor();
      const style = async (email: string) => (await status(email).locator('..').getAttribute('class')) ?? '';
      assert.equal(await style('tomorrow@example.test'), 'field-error');
      assert.equal(await style('expired@example.test'), 'field-error');
      assert.equal(await style('recent@example.test'), 'hint');
      assert.equal(await style('waiting@example.test'), 'hint');
      // An expired invitation holds no seat: 3 members and 4 open invitations.
      await page.getByText('7/10 users', { exact: true }).waitFor();
      await screenshot(page, 'e2e/team', 'statuses');
    });
  });

  it('opens the invitation at once from the users screen’s link (?invite=1)', async () => {
    await withPage(async ({ page }) => {
      await openAs(page, 'ada@acme.test', '/manage/team?invite=1');
      await dialog(page).getByRole('heading', { name: 'Invite someone' }).waitFor();
      assert.equal(await focused(page), '');
      await dialog(page).getByRole('button', { name: 'Cancel' }).click();
      await dialog(page).waitFor({ state: 'detached' });
      assert.equal(new URL(page.url()).search, '');
    });
  });

  it('invites and revokes with the keyboard alone', async () => {
    await withPage(async ({ page }) => {
      await openTeam(page);
      await page.locator('body').click({ position: { x: 1, y: 1 } });
      await tabTo(page, 'Invite');
      await page.keyboard.press('Enter');
      await dialog(page).getByRole('heading', { name: 'Invite someone' }).waitFor();
      await page.keyboard.type('keys@example.test');
      await page.keyboard.press('Enter');
      await page.getByText('Invitation sent to keys@example.test').waitFor();
      await dialog(page).waitFor({ state: 'detached' });
      await inbox().next('keys@example.test', /invited you to Acme/);
      // Focus is back on the Invite button; the row's buttons follow it once the list has it.
      assert.equal(await focused(page), 'Invite');
      await invites(page).getByRole('listitem').filter({ hasText: 'keys@example.test' }).waitFor();
      await tabTo(page, 'Revoke the invitation for keys@example.test', 3);
      await page.keyboard.press('Enter');
      const question = page.getByRole('alertdialog', { name: 'Revoke this invitation?' });
      await question.waitFor();
      assert.equal(await focused(page), 'Cancel');
      await page.keyboard.press('Tab');
      assert.equal(await focused(page), 'Revoke');
      await page.keyboard.press('Enter');
      await invites(page).getByText('No pending invitations.').waitFor();
      await question.waitFor({ state: 'detached' });
      // The row is gone: focus goes to the Invite button rather than to the page.
      await page.waitForFunction(() => {
        let active: Element | null = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active?.textContent?.trim() === 'Invite';
      });
    });
  });
});

describe('who sees the team screens', () => {
  it('shows bob (a member, not an admin) no admin entries, and the need-admin screen, with no admin call', async () => {
    await withPage(async ({ page }) => {
      const adminCalls: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/team')) adminCalls.push(request.url());
      });
      await openAs(page, 'bob@acme.test', '/manage');
      const nav = page.getByRole('navigation', { name: 'Account' });
      await nav.getByRole('link', { name: 'Personal info' }).waitFor();
      await page.getByText('Editor', { exact: true }).waitFor();
      for (const name of ['Team', 'Users', 'Groups'])
        assert.equal(await nav.getByRole('link', { name, exact: true }).count(), 0, name);
      for (const path of ['/manage/team', '/manage/user', '/manage/group']) {
        await page.goto(`${e2e.server.url}${path}`);
        await page
          .getByText('You need to be a team admin (owner or administrator) to open this page.')
          .waitFor();
      }
      await screenshot(page, 'e2e/team', 'need-admin');
      assert.deepEqual(
        adminCalls.filter((url) => !url.includes('/api/team/public/')),
        [],
      );
    });
  });

  it("shows another team's admin (carol, globex) her own team only, without the owner's limit button", async () => {
    await withPage(async ({ page }) => {
      await openTeam(page, 'carol@globex.test');
      await page.getByText('1/5 users', { exact: true }).waitFor();
      await page.getByText('12/50 GB used', { exact: true }).waitFor();
      await page.getByText('Tomás Ortega').waitFor();
      assert.equal(await page.getByText('Priya Natarajan').count(), 0);
      const limit = page.getByRole('button', { name: 'Manage user limit' });
      assert.equal(await limit.isDisabled(), true);
      await page.getByText('Only an owner of the team can change the user limit.').waitFor();
      // globex has no provider configured: their switches are off and cannot be turned on.
      const google = page.getByRole('switch', { name: 'Google' });
      assert.equal(await google.isDisabled(), true);
      assert.equal(await google.getAttribute('aria-checked'), 'false');
      await screenshot(page, 'e2e/team', 'other-team-admin');
    });
  });

  it('sends a signed-out visitor of /manage/team to the sign-in, coming back afterwards', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/manage/team`);
      await page.waitForURL((url) => url.pathname === '/login/team');
      assert.equal(new URL(page.url()).searchParams.get('ReturnUrl'), '/manage/team');
    });
  });
});
