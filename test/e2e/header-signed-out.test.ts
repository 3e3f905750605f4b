/**
 * The shared header signed out, on the portal page and on a suite app of another origin: Sign in (with
 * the way back where the portal can take it), the theme switch and the privacy link, also after signing
 * out from the header; and the bar in one row at 320, 768 and 1280 px wide in every language, switched
 * where the element stands.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { screenshot, signInContext, useE2E } from '../support/browser';
import { sessionFor } from '../support/test-server';
import { directionOf, LANGUAGES } from '../../src/contract/languages';
import { showLanguage } from '../support/screens-sweep';
import { readLocale, translator } from '../support/texts';

const e2e = useE2E();
const t = translator(readLocale('en'));

const WIDTHS = [320, 768, 1280] as const;

/** Run a measuring function (source text) on the page's `tag` element. */
const measure = <T>(page: Page, source: string, tag: string) =>
  page.evaluate(`(${source})(document.querySelector(${JSON.stringify(tag)}))`) as Promise<T>;

/** The signed-out bar: sideways scroll, the logo's row, and each control's place (source: runs in the page). */
const MEASURE_ROW = `(element) => {
  const header = element.shadowRoot.querySelector('header');
  const box = (el) => el.getBoundingClientRect();
  const logo = box(header.querySelector('.header-logo'));
  return {
    scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    row: (logo.top + logo.bottom) / 2,
    controls: [...header.querySelectorAll('a, button')].filter((el) => el.getClientRects().length > 0).map((el) => {
      const r = box(el);
      return { label: el.getAttribute('aria-label') || el.textContent.trim(),
        left: r.left, right: r.right, middle: (r.top + r.bottom) / 2,
        clipped: el.scrollWidth > el.clientWidth };
    }),
  };
}`;

interface RowLayout {
  scroll: number;
  row: number;
  controls: Array<{ label: string; left: number; right: number; middle: number; clipped: boolean }>;
}

/** The signed-out bar's controls, each by its role and name in English. */
function signedOutControls(element: Locator) {
  return {
    signIn: element.getByRole('link', { name: t('header.signIn') }),
    privacy: element.getByRole('link', { name: t('header.privacy') }),
    theme: element.getByRole('button', { name: t('header.darkTheme') }),
  };
}

describe('the header signed out', () => {
  it('offers Sign in, the theme switch and the privacy link on a suite app page, and again after signing out there', async () => {
    await e2e.withPage(async ({ page }, context) => {
      await page.goto(`${e2e.server.partnerUrl}/suite-app.html`);
      const header = page.locator('acct-header');
      const { signIn, privacy, theme } = signedOutControls(header);
      // From another origin the portal would refuse a way back: no ReturnUrl.
      assert.equal(await signIn.getAttribute('href'), `${e2e.server.url}/login/team`);
      assert.equal(await privacy.getAttribute('href'), 'https://www.intoware.com/privacy-policy/');
      assert.equal(await privacy.getAttribute('target'), '_blank');
      assert.match((await privacy.getAttribute('rel')) ?? '', /noopener/);

      const root = header.locator('[part="root"]');
      assert.equal(await theme.getAttribute('aria-pressed'), 'false');
      assert.equal(await root.getAttribute('data-theme'), 'light');
      await theme.click();
      assert.equal(await theme.getAttribute('aria-pressed'), 'true');
      assert.equal(await root.getAttribute('data-theme'), 'dark');
      assert.equal(await page.evaluate(() => localStorage.getItem('darkMode')), 'true');
      await screenshot(page, 'e2e/header', 'suite-app-signed-out-dark');
      await theme.click();
      assert.equal(await root.getAttribute('data-theme'), 'light');
      assert.deepEqual(await page.locator('#event-log li').allTextContents(), [
        'acct-theme-change {"theme":"dark"}',
        'acct-theme-change {"theme":"light"}',
      ]);

      // Signed in, the bar shows the user instead; signing out brings the controls back.
      await signInContext(context, (await sessionFor(e2e.server.server.app, 'carol@globex.test')).token);
      await page.reload();
      const account = header.getByRole('button', { name: t('header.accountMenu', { name: 'Carol Diaz' }) });
      await account.click();
      assert.equal(await signIn.count(), 0);
      assert.equal(await theme.count(), 0, 'the theme switch is in the menu');
      await header.getByRole('menuitem', { name: t('header.signOut') }).click();
      await signIn.waitFor();
      await privacy.waitFor();
      await theme.waitFor();
      assert.equal(await signIn.getAttribute('href'), `${e2e.server.url}/login/team`);
      await screenshot(page, 'e2e/header', 'suite-app-after-sign-out');

      // Sign in leads to the portal's team screen, whose header does not offer it again.
      await signIn.click();
      await page.waitForURL(`${e2e.server.url}/login/team`);
      const portal = page.locator('acct-portal');
      await portal.getByRole('heading', { name: t('login.team.title') }).waitFor();
      await signedOutControls(portal).privacy.waitFor();
      assert.equal(await signedOutControls(portal).signIn.count(), 0);
    });
  });

  it('signs in from a portal page and comes back to it (ReturnUrl)', async () => {
    await e2e.withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/search?q=workflow`);
      const portal = page.locator('acct-portal');
      // The header's (the search page offers one of its own too).
      const { signIn } = signedOutControls(portal.getByRole('banner'));
      assert.equal(
        await signIn.getAttribute('href'),
        `${e2e.server.url}/login/team?ReturnUrl=%2Fsearch%3Fq%3Dworkflow`,
      );
      await signIn.click();
      await portal.getByLabel(t('login.team.label')).fill('globex');
      await portal.getByRole('button', { name: t('login.continue') }).click();
      await portal.getByLabel(t('login.email')).fill('carol@globex.test');
      assert.equal(await signIn.count(), 0, 'no Sign in on the sign-in screens');
      await portal.getByLabel(t('login.password')).fill(DEMO_PASSWORD);
      await portal.getByRole('button', { name: t('login.continue') }).click();
      await page.waitForURL(`${e2e.server.url}/search?q=workflow`);
      await portal.getByRole('button', { name: t('header.accountMenu', { name: 'Carol Diaz' }) }).waitFor();
    });
  });

  it(`fits in one row at ${WIDTHS.join(', ')} px in every language`, async () => {
    const problems: string[] = [];
    // Each page is loaded once: the language changes where the element stands (its `lang`, as a host
    // page sets it) and the width with the window, as a person would resize it.
    const context = await e2e.browser.newContext({ viewport: { width: WIDTHS[0], height: 480 } });
    try {
      const page = await context.newPage();
      for (const [name, url, tag] of [
        ['suite-app', `${e2e.server.partnerUrl}/suite-app.html`, 'acct-header'],
        ['portal', `${e2e.server.url}/search`, 'acct-portal'],
      ] as const) {
        await page.goto(url);
        const element = page.locator(tag);
        for (const language of LANGUAGES) {
          await showLanguage(page, language, directionOf(language));
          const texts = translator(readLocale(language), language);
          await element.getByRole('link', { name: texts('header.signIn') }).waitFor();
          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: 480 });
            const where = `${name} at ${width} px in ${language}`;
            const layout = await measure<RowLayout>(page, MEASURE_ROW, tag);
            if (layout.scroll > 0) problems.push(`${where}: the page scrolls sideways by ${layout.scroll}px`);
            for (const control of layout.controls) {
              if (control.left < 0 || control.right > width)
                problems.push(`${where}: '${control.label}' is off the screen`);
              if (Math.abs(control.middle - layout.row) > 2)
                problems.push(`${where}: '${control.label}' is not on the logo's row`);
              if (control.clipped) problems.push(`${where}: '${control.label}' is cut off`);
            }
            if (width === 320 || language === 'en')
              await screenshot(page, 'e2e/header', `${name}-signed-out-${language}-${width}`);
          }
        }
      }
    } finally {
      await context.close();
    }
    assert.deepEqual(problems, []);
  });
});
