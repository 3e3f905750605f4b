/** The portal's search page against the real server: screens by title, and members for team admins. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { screenshot, signInContext, useE2E } from '../support/browser';
import { sessionFor } from '../support/test-server';
import { readLocale, translator } from '../support/texts';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });
const { withPage } = e2e;
const t = translator(readLocale('en'));

async function searchAs(page: Page, email: string, q: string) {
  await signInContext(page.context(), (await sessionFor(e2e.server.server.app, email)).token);
  await page.goto(`${e2e.server.url}/search?${new URLSearchParams({ q })}`);
}

const main = (page: Page) => page.locator('acct-portal main');

/** The search has answered: no spinner, no "searching" status left. */
async function answered(page: Page) {
  await main(page).locator('.spinner').waitFor({ state: 'detached' });
  assert.equal(
    await main(page)
      .getByText(/^Searching for/)
      .count(),
    0,
  );
}

describe('search', () => {
  it('finds the team screen for an admin', async () => {
    await withPage(async ({ page }) => {
      await searchAs(page, 'ada@acme.test', 'team');
      const link = main(page).getByRole('link', { name: t('manage.heading.team') });
      await link.waitFor();
      await answered(page);
      assert.equal(await link.getAttribute('href'), '/manage/team');
      await link.click();
      await page.waitForURL(`${e2e.server.url}/manage/team`);
    });
  });

  it("finds a member by a name's prefix for an admin, linking to the user screen", async () => {
    await withPage(async ({ page }) => {
      await searchAs(page, 'ada@acme.test', 'bo');
      const member = main(page).getByRole('link', { name: 'Bob Stone' });
      await member.waitFor();
      await answered(page);
      await main(page).getByText('bob@acme.test').waitFor();
      await screenshot(page, 'e2e/search', 'members');
      await member.click();
      await page.waitForURL(`${e2e.server.url}/manage/user?q=bob%40acme.test`);
    });
  });

  it('updates the address as one types, and answers each query', async () => {
    await withPage(async ({ page }) => {
      await searchAs(page, 'ada@acme.test', '');
      await main(page).getByText(t('search.prompt')).waitFor();
      await main(page)
        .getByRole('searchbox', { name: t('search.label') })
        .fill('qr');
      await page.waitForURL(`${e2e.server.url}/search?q=qr`);
      await main(page)
        .getByRole('link', { name: t('manage.heading.qr') })
        .waitFor();
      await answered(page);
    });
  });

  it('shows a member (bob) no members and no admin screens, and asks the server for none', async () => {
    await withPage(async ({ page }) => {
      // A member's search finds no members (the server answers nothing): it is not asked at all.
      const searches: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/search') searches.push(request.url());
      });
      await searchAs(page, 'bob@acme.test', 'ada');
      await main(page)
        .getByText(t('search.none', { query: 'ada' }))
        .waitFor();
      await answered(page);
      await page.goto(`${e2e.server.url}/search?q=groups`);
      await main(page)
        .getByText(t('search.none', { query: 'groups' }))
        .waitFor();
      assert.equal(
        await main(page)
          .getByRole('link', { name: t('manage.heading.group') })
          .count(),
        0,
      );
      assert.deepEqual(searches, []);
      // His own screens he finds.
      await page.goto(`${e2e.server.url}/search?q=personal`);
      await main(page)
        .getByRole('link', { name: t('manage.heading.info') })
        .waitFor();
    });
  });

  it("shows another team's admin (carol, globex) none of acme's members", async () => {
    await withPage(async ({ page }) => {
      await searchAs(page, 'carol@globex.test', 'bob');
      await main(page)
        .getByText(t('search.none', { query: 'bob' }))
        .waitFor();
      await answered(page);
      // Her own team's screens she finds.
      await page.goto(`${e2e.server.url}/search?q=team`);
      await main(page)
        .getByRole('link', { name: t('manage.heading.team') })
        .waitFor();
    });
  });

  it('says there are no results for "zzz", with no spinner left', async () => {
    await withPage(async ({ page }) => {
      await searchAs(page, 'ada@acme.test', 'zzz');
      await main(page)
        .getByText(t('search.none', { query: 'zzz' }))
        .waitFor();
      await answered(page);
      await screenshot(page, 'e2e/search', 'none');
    });
  });

  it('offers a signed-out visitor the sign-in, coming back to the search', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/search?q=team`);
      await main(page).getByText(t('manage.signedOut')).waitFor();
      assert.equal(
        await main(page)
          .getByRole('link', { name: t('manage.heading.team') })
          .count(),
        0,
      );
      await main(page)
        .getByRole('link', { name: t('manage.signIn') })
        .click();
      await page.waitForURL((url) => url.pathname === '/login/team');
      assert.equal(new URL(page.url()).searchParams.get('ReturnUrl'), '/search?q=team');
      await page.getByLabel(t('login.team.label')).fill('acme');
      await page.getByRole('button', { name: t('login.continue') }).click();
      await page.getByLabel(t('login.email')).fill('ada@acme.test');
      await page.getByLabel(t('login.password')).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: t('login.continue') }).click();
      await page.waitForURL(`${e2e.server.url}/search?q=team`);
      await main(page)
        .getByRole('link', { name: t('manage.heading.team') })
        .waitFor();
    });
  });
});
