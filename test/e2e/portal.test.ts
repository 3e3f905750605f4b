import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, signInContext, until, useE2E } from '../support/browser';
import { sessionFor, startTestServer } from '../support/test-server';

const e2e = useE2E();

const { withPage } = e2e;

async function as(page: Page, email: string) {
  await signInContext(page.context(), (await sessionFor(e2e.server.server.app, email)).token);
}

const portal = (page: Page) => page.locator('acct-portal');
const path = (page: Page) => new URL(page.url()).pathname;

describe('the portal shell', () => {
  it('navigates by clicking without reloading, with back and forward, and focus on the new heading', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.url}/manage`);
      await page.evaluate(() => {
        (window as unknown as { marker: string }).marker = 'same page';
      });
      const sidebar = portal(page).getByRole('navigation', { name: 'Account' }).last();
      await sidebar.getByRole('link', { name: 'QR code sign-in' }).click();
      await page.getByRole('button', { name: 'Generate QR code' }).waitFor();
      assert.equal(path(page), '/manage/qr');
      await sidebar.getByRole('link', { name: 'Developer tools' }).click();
      await page.getByRole('button', { name: 'Generate access token' }).waitFor();
      assert.equal(path(page), '/manage/dev');
      const focused = await page.evaluate(() => {
        let active = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active?.tagName;
      });
      assert.equal(focused, 'H1');
      await page.goBack();
      await page.getByRole('button', { name: 'Generate QR code' }).waitFor();
      assert.equal(path(page), '/manage/qr');
      await page.goBack();
      await portal(page).getByRole('heading', { name: 'Personal info' }).waitFor();
      await page.goForward();
      await page.getByRole('button', { name: 'Generate QR code' }).waitFor();
      // The logo is a plain link to '/': intercepted too, then the route table sends '/' to /manage.
      await portal(page).getByRole('link', { name: 'Intoware home' }).click();
      await page.waitForURL(`${e2e.server.url}/manage`);
      assert.equal(await page.evaluate(() => (window as unknown as { marker?: string }).marker), 'same page');
      const visits: Array<[string, string]> = [
        ['/manage/team', 'Pending invites'],
        ['/manage/user', 'Search members'],
        ['/manage/group', 'Create group'],
        ['/search', 'Type something to search.'],
        ['/nowhere', 'Personal info'],
      ];
      for (const [to, text] of visits) {
        await page.goto(`${e2e.server.url}${to}`);
        // Visible only: on a wide screen the folded navigation's 'Menu: …' button is hidden.
        await portal(page).getByText(text).filter({ visible: true }).first().waitFor();
      }
      assert.equal(path(page), '/manage');
      assert.equal(await page.title(), 'Intoware');
    });
  });

  it('asks for the discovery document once on the first signed-in load', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      const asked: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/.well-known/openid-configuration')
          asked.push(request.url());
      });
      await page.goto(`${e2e.server.url}/manage`);
      await portal(page).getByRole('heading', { name: 'Personal info' }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(asked.length, 1, asked.join('\n'));
    });
  });

  it('checks the session after each navigation without a ReturnUrl', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.url}/manage`);
      await portal(page).getByRole('heading', { name: 'Personal info' }).waitFor();
      const checks: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/account/check')) checks.push(new URL(page.url()).pathname);
      });
      const sidebar = portal(page).getByRole('navigation', { name: 'Account' }).last();
      const checked = page.waitForResponse((response) => response.url().endsWith('/account/check'));
      await sidebar.getByRole('link', { name: 'QR code sign-in' }).click();
      await page.waitForURL(`${e2e.server.url}/manage/qr`);
      await checked;
      assert.ok(checks.length >= 1, 'a check after the navigation');
      const before = checks.length;
      await page.evaluate(() => {
        history.pushState(null, '', '/login/team?ReturnUrl=%2Fmanage');
        dispatchEvent(new PopStateEvent('popstate'));
      });
      await portal(page).getByLabel('Team name').waitFor();
      // A check would go out as the route renders: after a later route's own check, it would be in.
      const next = page.waitForResponse((response) => response.url().endsWith('/account/check'));
      await page.evaluate(() => {
        history.pushState(null, '', '/manage/qr');
        dispatchEvent(new PopStateEvent('popstate'));
      });
      await next;
      assert.deepEqual(checks.slice(before), ['/manage/qr'], 'no check on a route with a ReturnUrl');
    });
  });

  it('keeps the menus exclusive, closes them on a click outside or Escape, and supports the keyboard', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.url}/manage`);
      const account = portal(page).getByRole('button', { name: 'Account menu for Ada Lovelace' });
      const apps = portal(page).getByRole('button', { name: 'Apps' });
      // The menu's Dashboard item comes with the switcher's answer, as the header's link does.
      await portal(page).locator('a', { hasText: 'Go to dashboard' }).waitFor({ state: 'attached' });
      await account.click();
      assert.equal(await account.getAttribute('aria-expanded'), 'true');
      const menu = portal(page).getByRole('menu', { name: 'Account menu for Ada Lovelace' });
      await menu.waitFor();
      await screenshot(page, 'e2e/portal', 'account-menu');
      await apps.click();
      assert.equal(await account.getAttribute('aria-expanded'), 'false');
      assert.equal(await apps.getAttribute('aria-expanded'), 'true');
      await portal(page).getByRole('heading', { name: 'Personal info' }).click();
      assert.equal(await apps.getAttribute('aria-expanded'), 'false');
      await account.focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const focusedItem = () =>
        page.evaluate(() => {
          let active = document.activeElement;
          while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
          return active?.textContent;
        });
      assert.equal(await focusedItem(), 'Dark theme');
      await page.keyboard.press('End');
      assert.equal(await focusedItem(), 'Sign out');
      await page.keyboard.press('ArrowDown');
      assert.equal(await focusedItem(), 'Dashboard');
      await page.keyboard.press('Escape');
      assert.equal(await account.getAttribute('aria-expanded'), 'false');
      assert.equal(await focusedItem(), 'ALAda Lovelace');
    });
  });

  it('shows who is signed in and where the account menu leads, in a 280 px popup', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.url}/manage`);
      await portal(page).getByRole('button', { name: 'Account menu for Ada Lovelace' }).click();
      const menu = portal(page).getByRole('menu', { name: 'Account menu for Ada Lovelace' });
      // The profile block sits in the popup above the menu's list (it is not an item).
      const popup = portal(page)
        .locator('[part="menu"]')
        .filter({ has: page.getByRole('menu', { name: 'Account menu for Ada Lovelace' }) });
      await popup.getByText('Ada Lovelace', { exact: true }).waitFor();
      await popup.getByText('ada@acme.test', { exact: true }).waitFor();
      assert.equal((await popup.boundingBox())?.width, 280);
      const dashboard = `${e2e.server.partnerUrl}/suite-app.html`;
      assert.equal(await menu.getByRole('menuitem', { name: 'Dashboard' }).getAttribute('href'), dashboard);
      assert.equal(
        await menu.getByRole('menuitem', { name: 'Manage account' }).getAttribute('href'),
        `${e2e.server.url}/manage`,
      );
      const privacy = menu.getByRole('menuitem', { name: 'Privacy policy' });
      assert.equal(await privacy.getAttribute('href'), 'https://www.intoware.com/privacy-policy/');
      assert.equal(await privacy.getAttribute('target'), '_blank');
      assert.match((await privacy.getAttribute('rel')) ?? '', /noopener/);
      // 'Go to dashboard' in the header, from the switcher's answer.
      const header = portal(page).getByRole('navigation', { name: 'Apps and account' });
      assert.equal(
        await header.getByRole('link', { name: 'Go to dashboard' }).getAttribute('href'),
        dashboard,
      );
    });
  });

  it('offers no dashboard when the switcher gives none', async () => {
    // No seeded configuration lacks a dashboard (demo mode always points at the suite page), so the
    // switcher's answer is replaced for this page.
    await withPage(async ({ page }) => {
      await page.route(/\/api\/switcher$/, (route) =>
        route.fulfill({ contentType: 'application/json', body: JSON.stringify({ dashboard: null }) }),
      );
      await as(page, 'ada@acme.test');
      // No dashboard, judged once the switcher has answered (the menus open before it does).
      const answered = page.waitForResponse(/\/api\/switcher$/);
      await page.goto(`${e2e.server.url}/manage`);
      await answered;
      await portal(page).getByRole('button', { name: 'Account menu for Ada Lovelace' }).click();
      const menu = portal(page).getByRole('menu', { name: 'Account menu for Ada Lovelace' });
      await menu.getByRole('menuitem', { name: 'Manage account' }).waitFor();
      assert.equal(await menu.getByRole('menuitem', { name: 'Dashboard' }).count(), 0);
      assert.equal(await portal(page).getByRole('link', { name: 'Go to dashboard' }).count(), 0);
      await portal(page).getByRole('button', { name: 'Apps' }).click();
      const apps = portal(page).getByRole('menu', { name: 'Apps' });
      await apps.getByRole('menuitem', { name: 'Account' }).waitFor();
      assert.equal(await apps.getByRole('menuitem', { name: 'Dashboard' }).count(), 0);
    });
  });

  it('closes the account menu when the language menu opens', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.url}/manage`);
      const account = portal(page).getByRole('button', { name: 'Account menu for Ada Lovelace' });
      const language = portal(page).getByRole('button', { name: 'Language: English' });
      await account.click();
      assert.equal(await account.getAttribute('aria-expanded'), 'true');
      await language.click();
      assert.equal(await language.getAttribute('aria-expanded'), 'true');
      assert.equal(await account.getAttribute('aria-expanded'), 'false');
      assert.equal(
        await portal(page).getByRole('menu', { name: 'Account menu for Ada Lovelace' }).isVisible(),
        false,
      );
      await account.click();
      assert.equal(await language.getAttribute('aria-expanded'), 'false');
    });
  });

  it('leaves modifier-clicks and links to other sites to the browser', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.url}/manage`);
      await page.evaluate(() => {
        (window as unknown as { marker: string }).marker = 'same page';
      });
      const sidebar = portal(page).getByRole('navigation', { name: 'Account', exact: true });
      const opened = page.context().waitForEvent('page');
      await sidebar.getByRole('link', { name: 'QR code sign-in' }).click({ modifiers: ['ControlOrMeta'] });
      const tab = await opened;
      await tab.waitForURL(`${e2e.server.url}/manage/qr`);
      assert.equal(path(page), '/manage', 'the portal did not navigate itself');
      await tab.close();
      // 'Go to dashboard' leads to another origin: a real navigation, not a history entry of the portal.
      await portal(page).getByRole('link', { name: 'Go to dashboard' }).click();
      await page.waitForURL(`${e2e.server.partnerUrl}/suite-app.html`);
      assert.equal(await page.evaluate(() => (window as unknown as { marker?: string }).marker), undefined);
    });
  });

  it('starts each new screen at the top', async () => {
    await withPage(async ({ page }) => {
      await page.setViewportSize({ width: 1024, height: 400 });
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.url}/manage`);
      await portal(page).getByRole('heading', { name: 'Third-party accounts' }).waitFor();
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      assert.ok((await page.evaluate(() => window.scrollY)) > 100, 'the page scrolled down');
      // A click that does not scroll the link into view first (as a mouse user at the bottom of the page
      // would reach the footer, or a script would click).
      await portal(page)
        .getByRole('navigation', { name: 'Account', exact: true })
        .getByRole('link', { name: 'Developer tools' })
        .evaluate((link: HTMLElement) => link.click());
      await page.waitForURL(`${e2e.server.url}/manage/dev`);
      await portal(page).getByRole('button', { name: 'Generate access token' }).waitFor();
      assert.equal(await page.evaluate(() => window.scrollY), 0);
    });
  });

  it('switches the theme, keeps it across a reload, and tells the page', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.url}/manage`);
      const events: unknown[] = [];
      await page.exposeFunction('recordTheme', (detail: unknown) => events.push(detail));
      await page.evaluate(() =>
        document.addEventListener('acct-theme-change', (event) =>
          (window as unknown as { recordTheme(d: unknown): void }).recordTheme((event as CustomEvent).detail),
        ),
      );
      await portal(page).getByRole('button', { name: 'Account menu for Ada Lovelace' }).click();
      await portal(page).getByRole('menuitemcheckbox', { name: 'Dark theme' }).click();
      await page.waitForFunction(() => document.body.classList.contains('dark-theme'));
      assert.equal(await portal(page).locator('[part="root"]').getAttribute('data-theme'), 'dark');
      assert.deepEqual(events, [{ theme: 'dark' }]);
      await page.reload();
      await portal(page).getByRole('heading', { name: 'Personal info' }).waitFor();
      assert.equal(await portal(page).locator('[part="root"]').getAttribute('data-theme'), 'dark');
      assert.equal(await page.evaluate(() => localStorage.getItem('darkMode')), 'true');
      await screenshot(page, 'e2e/portal', 'dark-theme');
      await portal(page).getByRole('button', { name: 'Account menu for Ada Lovelace' }).click();
      await portal(page).getByRole('menuitemcheckbox', { name: 'Dark theme' }).click();
      await page.waitForFunction(() => document.body.classList.contains('default-theme'));
      assert.equal(await page.evaluate(() => localStorage.getItem('darkMode')), null);
    });
  });

  it('updates the address while typing a search', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.url}/search`);
      await portal(page).getByText('Type something to search.').waitFor();
      await portal(page).getByRole('searchbox', { name: 'Search' }).pressSequentially('workflow');
      await page.waitForURL(`${e2e.server.url}/search?q=workflow`);
      await portal(page).getByText('No results for “workflow”.').waitFor();
      const length = await page.evaluate(() => history.length);
      assert.ok(length <= 3, `typing replaces history entries (${length})`);
    });
  });

  it('switches the language from the header menu, keeps the choice and tells the page', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/login/team`);
      const events: unknown[] = [];
      await page.exposeFunction('recordLanguage', (detail: unknown) => events.push(detail));
      await page.evaluate(() =>
        document.addEventListener('acct-language-change', (event) =>
          (window as unknown as { recordLanguage(d: unknown): void }).recordLanguage(
            (event as CustomEvent).detail,
          ),
        ),
      );
      await portal(page).getByRole('button', { name: 'Language: English' }).click();
      const deutsch = portal(page).getByRole('menuitemradio', { name: 'Deutsch' });
      assert.equal(await deutsch.getAttribute('lang'), 'de');
      await deutsch.click();
      await portal(page).getByRole('heading', { name: 'Bei Ihrem Team anmelden' }).waitFor();
      assert.equal(await portal(page).locator('[part="root"]').getAttribute('lang'), 'de');
      // The portal owns its page: the page's own language follows, for screen readers' voices.
      await page.waitForFunction(() => document.documentElement.lang === 'de');
      await until(async () => events.length > 0, 'the page told');
      assert.deepEqual(events, [{ language: 'de' }]);
      // After a reload the stored choice is read without blocking (the Cookie Store API): no frame may
      // show the browser's language (English) meanwhile, even when the cookie store is slow to answer.
      // (Source text: a compiled function could carry the TypeScript loader's helpers into the page.)
      await page.addInitScript({
        content: `(() => {
          // A slow cookie store: the browser's language (English) is ready well before the choice.
          const get = CookieStore.prototype.get;
          CookieStore.prototype.get = function (...args) {
            return new Promise((resolve) => setTimeout(resolve, 400)).then(() => get.apply(this, args));
          };
          const seen = (window.headings = []);
          // Headings in the page and in every shadow root under it.
          const headings = (root) =>
            [...root.querySelectorAll('*')].flatMap((element) => [
              ...(element.tagName === 'H1' ? [element.textContent] : []),
              ...(element.shadowRoot ? headings(element.shadowRoot) : []),
            ]);
          const tick = () => {
            const text = headings(document).join(' | ');
            if (text && seen.at(-1) !== text) seen.push(text);
            if (seen.length < 3 && performance.now() < 20000) requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        })();`,
      });
      await page.reload();
      await portal(page).getByRole('heading', { name: 'Bei Ihrem Team anmelden' }).waitFor();
      assert.deepEqual(await page.evaluate(() => (window as unknown as { headings: string[] }).headings), [
        'Bei Ihrem Team anmelden',
      ]);
      assert.match(await page.evaluate(() => document.cookie), /acct-lang=de/);
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
      assert.equal(await page.evaluate(() => Object.keys(localStorage).includes('acct-lang')), false);
    });
  });

  it('shows the footer with the provider link of each brand', async () => {
    const year = new Date().getFullYear();
    for (const [brand, name, href] of [
      ['intoware', 'Intoware', 'https://www.intoware.com/'],
      ['onsight', 'WorkfloPlus', 'https://www.workfloplus.com/'],
      ['schenck', 'WorkfloPlus', 'https://www.workfloplus.com/'],
    ] as const) {
      const branded = brand === 'intoware' ? e2e.server : await startTestServer({ BRAND: brand });
      try {
        await withPage(async ({ page }) => {
          await page.goto(`${branded.url}/login/team`);
          const footer = portal(page).getByRole('contentinfo');
          const link = footer.getByRole('link', { name });
          assert.equal(await link.getAttribute('href'), href, brand);
          assert.equal(await link.getAttribute('target'), '_blank', brand);
          // One sentence, the link in its slot.
          assert.equal(
            (await footer.textContent())?.trim(),
            `© ${year} ${name}. All rights reserved.`,
            brand,
          );
        });
      } finally {
        if (branded !== e2e.server) await branded.close();
      }
    }
  });
});

describe('the header on a foreign page', () => {
  it('shows the signed-in user across origins, and tells the page about theme and sign-out', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.partnerUrl}/suite-app.html`);
      const header = page.locator('acct-header');
      await header.getByRole('button', { name: 'Account menu for Ada Lovelace' }).click();
      await header.getByRole('menuitemcheckbox', { name: 'Dark theme' }).click();
      // A checkbox item leaves the menu open.
      await header.getByRole('menuitem', { name: 'Sign out' }).click();
      await header
        .getByRole('button', { name: 'Account menu for Ada Lovelace' })
        .waitFor({ state: 'detached' });
      const log = await page.locator('#event-log li').allTextContents();
      assert.deepEqual(log, ['acct-theme-change {"theme":"dark"}', 'acct-signed-out {"reason":"user"}']);
    });
  });
});

describe('a brand without a dark theme', () => {
  it('offers no theme switch for schenck', async () => {
    const schenck = await startTestServer({ BRAND: 'schenck' });
    try {
      await withPage(async ({ page }) => {
        await signInContext(page.context(), (await sessionFor(schenck.server.app, 'ada@acme.test')).token);
        await page.goto(`${schenck.url}/manage`);
        await portal(page).getByRole('button', { name: 'Account menu for Ada Lovelace' }).click();
        await portal(page).getByRole('menuitem', { name: 'Sign out' }).waitFor();
        assert.equal(await portal(page).getByRole('menuitemcheckbox', { name: 'Dark theme' }).count(), 0);
      });
    } finally {
      await schenck.close();
    }
  });
});
