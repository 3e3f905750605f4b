/**
 * The manage area's navigation in the portal: its three groups for a team admin, the current page
 * marked, keyboard use, and, at 390 px, folded behind one button so each screen's content starts near
 * the top; and the header's way to the search page.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, signInContext, useE2E } from '../support/browser';
import { sessionFor } from '../support/test-server';
import { readLocale, translator } from '../support/texts';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });
const { withPage } = e2e;
const t = translator(readLocale('en'));

async function open(page: Page, email: string, path: string) {
  await signInContext(page.context(), (await sessionFor(e2e.server.server.app, email)).token);
  await page.goto(`${e2e.server.url}${path}`);
}

const nav = (page: Page) => page.getByRole('navigation', { name: t('manage.nav.label'), exact: true });
const heading = (page: Page, key: string) => page.getByRole('heading', { level: 1, name: t(key) });

/** Where the screen's heading starts, in CSS pixels from the top of the page. */
async function headingTop(page: Page, key: string): Promise<number> {
  const box = await heading(page, key).boundingBox();
  assert.ok(box, 'the heading is laid out');
  return box.y;
}

describe('manage navigation', () => {
  it('groups a team admin’s screens under your account, your team and developer tools', async () => {
    await withPage(async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await open(page, 'ada@acme.test', '/manage/group');
      await heading(page, 'manage.heading.group').waitFor();
      // The team group shows once the caller's permissions are in, which may be after the heading.
      await nav(page)
        .getByRole('link', { name: t('manage.nav.teamApps'), exact: true })
        .waitFor();
      const lists = nav(page).getByRole('list');
      assert.equal(await lists.count(), 3);
      const names = await Promise.all(
        [0, 1, 2].map(async (i) => (await lists.nth(i).getAttribute('aria-labelledby'))!),
      );
      const labels = await Promise.all(
        names.map((id) => page.locator('acct-portal').locator(`[id="${id}"]`).textContent()),
      );
      assert.deepEqual(labels, [
        t('manage.nav.groups.account'),
        t('manage.nav.groups.team'),
        t('manage.nav.groups.developer'),
      ]);
      const team = await lists.nth(1).getByRole('link').allTextContents();
      assert.deepEqual(team, [
        t('manage.nav.team'),
        t('manage.nav.user'),
        t('manage.nav.group'),
        t('manage.nav.teamApps'),
        t('manage.nav.teamDomains'),
        t('manage.nav.teamConnections'),
        t('manage.nav.teamDirectories'),
        t('manage.nav.teamEvents'),
        t('manage.nav.teamStreaming'),
      ]);
      assert.equal(
        await nav(page)
          .getByRole('link', { name: t('manage.nav.teamApps'), exact: true })
          .getAttribute('href'),
        '/manage/team/apps',
      );
      // The spec's routes are unchanged, and the current page is marked.
      assert.equal(
        await nav(page)
          .getByRole('link', { name: t('manage.nav.group') })
          .getAttribute('href'),
        '/manage/group',
      );
      const current = nav(page).locator('[aria-current="page"]');
      assert.deepEqual(await current.allTextContents(), [t('manage.nav.group')]);
      // Wide, there is no menu button: the whole list is shown.
      assert.equal(await nav(page).getByRole('button').count(), 0);
      await screenshot(page, 'e2e/manage-nav', 'admin-1280');
    });
  });

  it('shows a member no team group', async () => {
    await withPage(async ({ page }) => {
      // No team group, judged once the permissions are in (the group shows only after them).
      const permissions = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/user/permissions',
      );
      await open(page, 'bob@acme.test', '/manage');
      await heading(page, 'manage.heading.info').waitFor();
      await permissions;
      assert.equal(await nav(page).getByRole('list').count(), 2);
      assert.equal(
        await nav(page)
          .getByRole('link', { name: t('manage.nav.user') })
          .count(),
        0,
      );
    });
  });

  it('at 390 px folds behind "Menu: <page>", the content near the top; opens by keyboard', async () => {
    await withPage(async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await open(page, 'ada@acme.test', '/manage/sessions');
      await heading(page, 'manage.nav.sessions').waitFor();
      const toggle = nav(page).getByRole('button', {
        name: t('manage.nav.menu', { page: t('manage.nav.sessions') }),
      });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.equal(await nav(page).getByRole('link').count(), 0, 'the links are folded away');
      // The header, the menu button, then the content: well within the first screen.
      const top = await headingTop(page, 'manage.nav.sessions');
      assert.ok(top < 250, `the content starts ${top} px down`);
      await screenshot(page, 'e2e/manage-nav', 'phone-390');

      await toggle.focus();
      await page.keyboard.press('Enter');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      const users = nav(page).getByRole('link', { name: t('manage.nav.user') });
      await users.waitFor();
      await screenshot(page, 'e2e/manage-nav', 'phone-390-open');
      await page.keyboard.press('Tab');
      assert.equal(
        await nav(page)
          .getByRole('link', { name: t('manage.nav.info') })
          .evaluate((a) => a.matches(':focus')),
        true,
      );
      await users.focus();
      await page.keyboard.press('Enter');
      await heading(page, 'manage.heading.user').waitFor();
      // After the navigation it folds again and names the new page.
      await nav(page)
        .getByRole('button', { name: t('manage.nav.menu', { page: t('manage.nav.user') }) })
        .waitFor();
      assert.equal(await nav(page).getByRole('link').count(), 0);
      assert.ok((await headingTop(page, 'manage.heading.user')) < 250);
    });
  });

  it('offers the search in the header, by keyboard, and the search finds the newer screens', async () => {
    await withPage(async ({ page }) => {
      await open(page, 'ada@acme.test', '/manage');
      await heading(page, 'manage.heading.info').waitFor();
      const search = page.getByRole('banner').getByRole('link', { name: t('header.search') });
      await search.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${e2e.server.url}/search`);
      const field = page.getByRole('searchbox', { name: t('search.label') });
      await field.waitFor();
      await field.fill('recovery');
      const found = page.locator('acct-portal main').getByRole('link', { name: t('manage.nav.security') });
      await found.waitFor();
      assert.equal(await found.getAttribute('href'), '/manage/security');
    });
  });
});
