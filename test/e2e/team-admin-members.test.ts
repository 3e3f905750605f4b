import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { failedResource, screenshot, signInContext, useE2E } from '../support/browser';
import { addUser } from '../support/team-admin';
import { sessionFor, tokenFor } from '../support/test-server';

/**
 * The users and groups screens against the real server: what ada (acme's OWNER) does there, what the
 * server then says for the members concerned, and what a member or another team's admin sees.
 */
const e2e = useE2E();
const { withPage } = e2e;

async function openAs(page: Page, email: string, path: string) {
  await signInContext(page.context(), (await sessionFor(e2e.server.server.app, email)).token);
  await page.goto(`${e2e.server.url}${path}`);
}

const dialog = (page: Page) => page.locator('acct-portal dialog[open]');
const row = (page: Page, text: string): Locator => page.locator('acct-portal li.member', { hasText: text });
/** What a member who is not an admin is told on the users and groups screens. */
const REFUSED =
  /^(Only the team's owners and administrators can manage its members\.|You need to be a team admin \(owner or administrator\) to open this page\.)$/;
const search = (page: Page) => page.getByRole('searchbox', { name: 'Search members' });

/** A bearer call to the server as an app would make it. */
async function asMember(token: string, path: string): Promise<Response> {
  return fetch(`${e2e.server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
}

/** The label (or text) of the element that has focus, inside the shadow roots. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    const label = active instanceof HTMLInputElement ? active.labels?.[0]?.textContent : null;
    return (active?.getAttribute('aria-label') ?? label ?? active?.textContent ?? '').trim();
  });
}

/** Tab until the element named `label` has focus (at most `limit` presses). */
async function tabTo(page: Page, label: string | RegExp, limit = 80) {
  for (let i = 0; i < limit; i++) {
    const name = await focused(page);
    if (typeof label === 'string' ? name === label : label.test(name)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`no focus on ${String(label)} after ${limit} tabs (last: ${await focused(page)})`);
}

describe('users screen', () => {
  before(async () => {
    const t = { db: e2e.server.server.db, clock: e2e.server.clock };
    // More members than a page (25): two pages by name.
    for (let i = 1; i <= 30; i++) {
      const n = String(i).padStart(2, '0');
      await addUser(t, { email: `member${n}@acme.test`, name: `Member ${n}`, permissions: ['SPOKE'] });
    }
    await addUser(t, { email: 'zed@acme.test', name: 'Zed Removable', permissions: ['EDITOR'] });
  });

  it('lists the members with their details; searches by name and by e-mail start, kept in the address', async () => {
    await withPage(async ({ page }) => {
      await openAs(page, 'ada@acme.test', '/manage/user');
      await page.getByRole('heading', { name: 'Users', level: 2 }).waitFor();
      const bob = row(page, 'bob@acme.test');
      await bob.getByText('Bob Stone', { exact: true }).waitFor();
      await bob.getByText('Editor', { exact: true }).waitFor();
      await bob.getByText('Google', { exact: true }).waitFor();
      await row(page, 'ada@acme.test').getByText('Owner', { exact: true }).waitFor();
      await row(page, 'ada@acme.test').getByText('Password, Google').waitFor();
      await page.getByText('Showing 25 of 34').waitFor();
      await screenshot(page, 'e2e/team-admin', 'users');

      await search(page).fill('sto');
      await page.waitForURL((url) => url.searchParams.get('q') === 'sto');
      await page.getByText('Showing 1 of 1').waitFor();
      assert.equal(await page.locator('acct-portal li.member').count(), 1);
      await row(page, 'Bob Stone').waitFor();
      await page.reload();
      await page.getByText('Showing 1 of 1').waitFor();
      assert.equal(await search(page).inputValue(), 'sto');
      await row(page, 'Bob Stone').waitFor();

      await search(page).fill('locked@');
      await page.waitForURL((url) => url.searchParams.get('q') === 'locked@');
      await row(page, 'Lee Locke').waitFor();
      assert.equal(await page.locator('acct-portal li.member').count(), 1);

      await search(page).fill('nobody-like-this');
      await page.getByText('No members match “nobody-like-this”.').waitFor();
      await search(page).fill('');
      await page.waitForURL((url) => !url.searchParams.has('q'));
      await page.getByText('Showing 25 of 34').waitFor();

      // "Invite a member" is the team screen's invite dialog.
      await page.getByRole('link', { name: 'Invite a member' }).click();
      await page.waitForURL(
        (url) => url.pathname === '/manage/team' && url.searchParams.get('invite') === '1',
      );
    });
  });

  it('pages with the server cursor: Show more adds the next page', async () => {
    await withPage(async ({ page }) => {
      await openAs(page, 'ada@acme.test', '/manage/user');
      await page.getByText('Showing 25 of 34').waitFor();
      assert.equal(await page.locator('acct-portal li.member').count(), 25);
      await page.getByRole('button', { name: 'Show more' }).click();
      await page.getByText('Showing 34 of 34').waitFor();
      assert.equal(await page.locator('acct-portal li.member').count(), 34);
      await row(page, 'zed@acme.test').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Show more' }).count(), 0);
      // Each member once, in the order of their names.
      const names = await page.locator('acct-portal li.member .member-name').allTextContents();
      assert.equal(new Set(names).size, 34);
    });
  });

  it("edits bob's permissions; the server answers them for bob", async () => {
    const bob = await tokenFor(e2e.server.server.app, 'bob@acme.test');
    await withPage(async ({ page }) => {
      await openAs(page, 'ada@acme.test', '/manage/user?q=bob');
      await page.getByRole('button', { name: 'Edit permissions of Bob Stone' }).click();
      const form = dialog(page);
      await form.getByRole('heading', { name: 'Permissions of Bob Stone' }).waitFor();
      assert.equal(await form.getByRole('checkbox', { name: 'Editor' }).isChecked(), true);
      await form.getByRole('checkbox', { name: 'Editor' }).uncheck();
      await form.getByRole('checkbox', { name: 'Approver' }).check();
      await screenshot(page, 'e2e/team-admin', 'permissions-dialog');
      await form.getByRole('button', { name: 'Save permissions' }).click();
      await form.waitFor({ state: 'detached' });
      await row(page, 'Bob Stone').getByText('Approver', { exact: true }).waitFor();
    });
    const permissions = (await (await asMember(bob.accessToken, '/api/user/permissions')).json()) as Record<
      string,
      boolean
    >;
    assert.equal(permissions.APPROVER, true);
    assert.equal(permissions.EDITOR, false);
  });

  it("disables bob (his token's next call is refused), then enables him again", async () => {
    const bob = await tokenFor(e2e.server.server.app, 'bob@acme.test');
    assert.equal((await asMember(bob.accessToken, '/connect/userinfo')).status, 200);
    await withPage(async ({ page }) => {
      await openAs(page, 'ada@acme.test', '/manage/user?q=bob');
      await page.getByRole('button', { name: 'Disable Bob Stone' }).click();
      const ask = page.getByRole('alertdialog', { name: 'Disable Bob Stone?' });
      await ask.getByText('Bob Stone (bob@acme.test) is signed out everywhere').waitFor();
      await screenshot(page, 'e2e/team-admin', 'disable-dialog');
      await ask.getByRole('button', { name: 'Disable' }).click();
      await ask.waitFor({ state: 'detached' });
      await row(page, 'Bob Stone').getByText('Disabled', { exact: true }).waitFor();
      assert.equal((await asMember(bob.accessToken, '/connect/userinfo')).status, 401);

      await page.getByRole('button', { name: 'Enable Bob Stone' }).click();
      await row(page, 'Bob Stone').getByText('Active', { exact: true }).waitFor();
      await page.getByText('Bob Stone is enabled').waitFor();
    });
    // Disabling ended his sessions; a new one works again.
    const again = await tokenFor(e2e.server.server.app, 'bob@acme.test');
    assert.equal((await asMember(again.accessToken, '/connect/userinfo')).status, 200);
  });

  it('removes a member after a confirmation naming them; refuses to remove ada herself', async () => {
    await withPage(async ({ page }) => {
      await openAs(page, 'ada@acme.test', '/manage/user?q=zed');
      await page.getByRole('button', { name: 'Remove Zed Removable' }).click();
      const ask = page.getByRole('alertdialog', { name: 'Remove Zed Removable?' });
      await ask.getByText('Zed Removable (zed@acme.test) leaves the team at once').waitFor();
      // Cancel keeps them.
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await ask.waitFor({ state: 'detached' });
      await row(page, 'Zed Removable').waitFor();
      await page.getByRole('button', { name: 'Remove Zed Removable' }).click();
      await ask.getByRole('button', { name: 'Remove' }).click();
      await ask.waitFor({ state: 'detached' });
      await page.getByText('No members match “zed”.').waitFor();
      await page.getByText('Zed Removable was removed').waitFor();

      // Removing herself is not offered: the button says why, and asks nothing.
      await search(page).fill('ada');
      const removeSelf = page.getByRole('button', { name: 'Remove Ada Lovelace' });
      assert.equal(await removeSelf.getAttribute('aria-disabled'), 'true');
      await row(page, 'Ada Lovelace')
        .getByText('You cannot disable or remove yourself, nor drop your own administrator rights.')
        .waitFor();
      await removeSelf.click({ force: true });
      assert.equal(await page.getByRole('alertdialog').count(), 0);
      await screenshot(page, 'e2e/team-admin', 'remove-self-refused');
    });
    const ada = await tokenFor(e2e.server.server.app, 'ada@acme.test');
    const list = (await (await asMember(ada.accessToken, '/api/team/members?q=zed')).json()) as {
      members: unknown[];
    };
    assert.equal(list.members.length, 0);
  });

  it('follows a member removed in another tab: the refusal, then the list without them', async () => {
    const t = { db: e2e.server.server.db, clock: e2e.server.clock };
    const id = await addUser(t, { email: 'yuri@acme.test', name: 'Yuri Twotabs', permissions: ['SPOKE'] });
    await withPage(
      async ({ page }) => {
        await openAs(page, 'ada@acme.test', '/manage/user?q=yuri');
        await row(page, 'Yuri Twotabs').waitFor();
        // The other tab removes him.
        const ada = await tokenFor(e2e.server.server.app, 'ada@acme.test');
        const removed = await fetch(`${e2e.server.url}/api/team/members/${id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${ada.accessToken}` },
        });
        assert.equal(removed.status, 204);
        await page.getByRole('button', { name: 'Disable Yuri Twotabs' }).click();
        const ask = page.getByRole('alertdialog', { name: 'Disable Yuri Twotabs?' });
        await ask.getByRole('button', { name: 'Disable' }).click();
        await ask.getByRole('alert').getByText('That member or group no longer exists.').waitFor();
        await ask.getByRole('button', { name: 'Cancel' }).click();
        await page.getByText('No members match “yuri”.').waitFor();
        assert.equal(await row(page, 'Yuri Twotabs').count(), 0);
      },
      [failedResource(404)],
    );
  });

  it("edits a member's permissions with the keyboard only", async () => {
    await withPage(async ({ page }) => {
      await openAs(page, 'ada@acme.test', '/manage/user?q=member01');
      await row(page, 'Member 01').waitFor();
      await tabTo(page, 'Edit permissions of Member 01');
      await page.keyboard.press('Enter');
      const form = dialog(page);
      await form.getByRole('heading', { name: 'Permissions of Member 01' }).waitFor();
      // Focus starts on the first box (Owner); Approver is the fourth.
      assert.equal(await focused(page), 'Owner');
      for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
      assert.equal(await focused(page), 'Approver');
      await page.keyboard.press('Space');
      await tabTo(page, 'Save permissions', 5);
      await page.keyboard.press('Enter');
      await form.waitFor({ state: 'detached' });
      await row(page, 'Member 01').getByText('Approver, Spoke').waitFor();
      // Focus is back on the button that opened the dialog.
      await page.waitForFunction(() => {
        let active = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active?.getAttribute('aria-label') === 'Edit permissions of Member 01';
      });
    });
  });

  it('fits a narrow screen without scrolling sideways', async () => {
    await withPage(async ({ page }) => {
      await page.setViewportSize({ width: 360, height: 800 });
      await openAs(page, 'ada@acme.test', '/manage/user');
      await row(page, 'bob@acme.test').waitFor();
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360));
      await screenshot(page, 'e2e/team-admin', 'users-narrow');
      await page.goto(`${e2e.server.url}/manage/group`);
      await page.getByRole('textbox', { name: 'New group name' }).waitFor();
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360));
    });
  });

  it('shows a member who is not an admin that the screens are not theirs', async () => {
    await withPage(
      async ({ page }) => {
        await openAs(page, 'bob@acme.test', '/manage/user');
        // The screen's own answer to a 403, or the manage area's, which asks no admin call of a member.
        await page.getByText(REFUSED).waitFor();
        assert.equal(await page.locator('acct-portal li.member').count(), 0);
        assert.equal(await page.getByRole('button', { name: 'Try again' }).count(), 0);
        assert.equal(await search(page).count(), 0);
        await page.goto(`${e2e.server.url}/manage/group`);
        await page.getByText(REFUSED).waitFor();
        assert.equal(await page.getByRole('textbox', { name: 'New group name' }).count(), 0);
      },
      [failedResource(403)],
    );
  });

  it("shows another team's admin only their own team", async () => {
    await withPage(async ({ page }) => {
      await openAs(page, 'carol@globex.test', '/manage/user');
      await row(page, 'carol@globex.test').waitFor();
      await page.getByText('Showing 1 of 1').waitFor();
      assert.equal(await row(page, 'ada@acme.test').count(), 0);
    });
  });

  it('sends a visitor who is not signed in to sign in, coming back afterwards', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/manage/user?q=bob`);
      await page.waitForURL((url) => url.pathname === '/login/team');
      assert.equal(new URL(page.url()).searchParams.get('ReturnUrl'), '/manage/user?q=bob');
    });
  });
});

describe('groups screen', () => {
  it('creates, refuses a duplicate at the field, renames, adds and removes bob, deletes', async () => {
    const bob = await tokenFor(e2e.server.server.app, 'bob@acme.test');
    const bobsGroups = async () =>
      ((await (await asMember(bob.accessToken, '/connect/userinfo')).json()) as { groups: string[] }).groups;
    await withPage(
      async ({ page }) => {
        await openAs(page, 'ada@acme.test', '/manage/group');
        await page.getByText('The team has no groups yet.').waitFor();
        const name = page.getByRole('textbox', { name: 'New group name' });
        await name.fill('Operations');
        await page.getByRole('button', { name: 'Create group' }).click();
        await page.getByRole('heading', { name: 'Operations', level: 3 }).waitFor();
        assert.equal(await name.inputValue(), '');

        await name.fill('  operations ');
        await page.getByRole('button', { name: 'Create group' }).click();
        await page.getByText('The team already has a group of that name.').waitFor();
        assert.equal(await name.getAttribute('aria-invalid'), 'true');
        await screenshot(page, 'e2e/team-admin', 'group-name-taken');
        await page.getByRole('button', { name: 'Create group' }).click();
        await page.getByText('The team already has a group of that name.').waitFor();
        await name.fill('');
        await page.getByRole('button', { name: 'Create group' }).click();
        await page.getByText('Enter a group name.').waitFor();

        await page.getByRole('button', { name: 'Rename Operations' }).click();
        const rename = dialog(page);
        await rename.getByLabel('Group name').fill('Ops');
        await rename.getByRole('button', { name: 'Rename' }).click();
        await rename.waitFor({ state: 'detached' });
        await page.getByRole('heading', { name: 'Ops', level: 3 }).waitFor();

        await page.getByRole('button', { name: 'Add a member to Ops' }).click();
        const picker = dialog(page);
        await picker.getByRole('searchbox', { name: 'Find a member' }).fill('bob');
        await picker.getByRole('button', { name: /Bob Stone/ }).waitFor();
        await screenshot(page, 'e2e/team-admin', 'group-picker');
        await picker.getByRole('button', { name: /Bob Stone/ }).click();
        await picker.waitFor({ state: 'detached' });
        const members = page.getByRole('list', { name: 'Members of Ops' });
        await members.getByText('Bob Stone').waitFor();
        assert.deepEqual(await bobsGroups(), ['Ops']);
        await screenshot(page, 'e2e/team-admin', 'groups');

        await page.getByRole('button', { name: 'Remove Bob Stone from Ops' }).click();
        await page.getByText('No members yet.').waitFor();
        assert.deepEqual(await bobsGroups(), []);

        await page.getByRole('button', { name: 'Delete Ops' }).click();
        const ask = page.getByRole('alertdialog', { name: 'Delete Ops?' });
        await ask.getByRole('button', { name: 'Delete' }).click();
        await ask.waitFor({ state: 'detached' });
        await page.getByText('The team has no groups yet.').waitFor();
      },
      [failedResource(409)],
    );
  });

  it("adds a member to a group from the users screen's group dialog", async () => {
    const ada = await tokenFor(e2e.server.server.app, 'ada@acme.test');
    const made = await fetch(`${e2e.server.url}/api/team/groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Field team' }),
    });
    assert.equal(made.status, 201);
    await withPage(async ({ page }) => {
      await openAs(page, 'ada@acme.test', '/manage/user?q=bob');
      await page.getByRole('button', { name: 'Groups of Bob Stone' }).click();
      const form = dialog(page);
      // The box shows what the server has saved: it turns checked once the answer is in, not at the click.
      const box = form.getByRole('checkbox', { name: 'Field team' });
      await box.click();
      await row(page, 'Bob Stone').getByText('Field team', { exact: true }).waitFor();
      assert.equal(await box.isChecked(), true);
      await form.getByRole('button', { name: 'Done' }).click();
      await form.waitFor({ state: 'detached' });
      await page.goto(`${e2e.server.url}/manage/group`);
      await page.getByRole('list', { name: 'Members of Field team' }).getByText('Bob Stone').waitFor();
    });
  });
});
