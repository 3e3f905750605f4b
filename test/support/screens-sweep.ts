import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { BrandName } from '../../demo/server/config';
import { BRANDS } from '../../src/brands';
import { axeViolations } from './axe';
import { screenshot, sweepTab, useE2E, useServer, type BrowserHandle, type ServerHandle } from './browser';
import { servePseudo, untranslated, type Pseudo } from './pseudo-locale';
import { sweepProviderPages } from './provider-pages-sweep';
import { expectedErrors, holdTransient, SHOTS, SHOTS_ENV, transientGone, type Shot } from './screens';
import { keysOf, readLocale, translator } from './texts';
import { timed } from './timing';

type Theme = 'light' | 'dark';

/** Wait until the root of every element of the page carries `value` in `attribute`. */
async function everyRoot(
  page: Page,
  attribute: 'data-theme' | 'data-brand' | 'lang' | 'dir',
  value: string,
): Promise<void> {
  await page.waitForFunction(
    ([attribute, value]) =>
      [...document.querySelectorAll('*')]
        .filter((element) => element.tagName.startsWith('ACCT-'))
        .map((element) => element.shadowRoot?.querySelector('.acct-root'))
        .every((root) => root == null || root.getAttribute(attribute) === value),
    [attribute, value] as const,
  );
}

/**
 * Switch the elements of the page to `theme` where they stand, as another tab of the site would
 * (darkMode in local storage, then a `storage` event), and wait until every element shows it.
 */
async function showTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate((dark) => {
    if (dark) localStorage.setItem('darkMode', 'true');
    else localStorage.removeItem('darkMode');
    window.dispatchEvent(new StorageEvent('storage', { key: 'darkMode' }));
  }, theme === 'dark');
  await everyRoot(page, 'data-theme', theme);
}

/**
 * Switch the elements of the page to `brand` where they stand (their `brand` attribute, which a host page
 * sets), and wait until every element shows it.
 */
async function showBrand(page: Page, brand: BrandName): Promise<void> {
  await page.evaluate((brand) => {
    for (const element of document.querySelectorAll('*'))
      if (element.tagName.startsWith('ACCT-')) element.setAttribute('brand', brand);
  }, brand);
  await everyRoot(page, 'data-brand', brand);
}

/**
 * Switch the elements of the page to `language` where they stand (their `lang` attribute, as a host page
 * sets it), and wait until every element shows it: its root takes the language's direction in the same
 * render as its texts.
 */
export async function showLanguage(page: Page, language: string, direction: 'ltr' | 'rtl'): Promise<void> {
  await page.evaluate((language) => {
    for (const element of document.querySelectorAll('*'))
      if (element.tagName.startsWith('ACCT-')) element.setAttribute('lang', language);
  }, language);
  await everyRoot(page, 'lang', language);
  await everyRoot(page, 'dir', direction);
}

/** The page's words shaped like a key (kept as source: run in the page, where tsx's helpers are not). */
const RAW_WORDS = `(() => {
  const found = [];
  const walk = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) found.push(...(node.textContent ?? '').split(/\\s+/));
      else if (node.nodeType === Node.ELEMENT_NODE) {
        for (const name of ['aria-label', 'placeholder', 'title'])
          found.push(...(node.getAttribute(name) ?? '').split(/\\s+/));
        if (node.shadowRoot) walk(node.shadowRoot);
      }
    }
  };
  walk(document.body);
  return found.filter((word) => /^[a-z]\\w*(\\.\\w+)+$/.test(word));
})()`;

/**
 * Keys shown instead of their texts: i18next shows the key of a text it does not have, as on a screen
 * whose text part was never loaded. Text and the names and hints in attributes, through open shadow roots.
 */
async function rawKeys(page: Page, keys: ReadonlySet<string>): Promise<string[]> {
  const words = (await page.evaluate(RAW_WORDS)) as string[];
  return [...new Set(words.filter((word) => keys.has(word)))];
}

/** The host pages of the demo: their layout is the host's, not the elements'. */
const HOST_PAGES = ['suite-app', 'suite-app-menu', 'partner'];
/**
 * A 320 px wide phone, and a 1280 px screen at 200% zoom (640 CSS pixels: the zoom only changes the
 * pixels per CSS pixel, not the layout) — WCAG 1.4.10 reflow.
 */
const SMALL_SCREENS = [
  { label: '320px', width: 320, height: 640 },
  { label: 'zoom-200', width: 640, height: 400 },
];

/**
 * The screen where it stands, on each small screen: written to test-results/responsive/, and what
 * scrolls sideways said. The viewport is put back afterwards.
 */
async function smallScreens(page: Page, name: string): Promise<string[]> {
  const overflow: string[] = [];
  for (const { label, width, height } of SMALL_SCREENS) {
    await page.setViewportSize({ width, height });
    await screenshot(page, 'responsive', `${name}-${label}`);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (wide > 0) overflow.push(`${name} at ${label}: ${wide}px too wide`);
  }
  await page.setViewportSize({ width: 1024, height: 720 });
  return overflow;
}

/**
 * The screens sweep (test/e2e/screens-brands.test.ts): every screen (screens.ts) in each brand, light and
 * — where the brand has one — dark, written to test-results/screens/ for people to look at, checked with
 * axe-core (WCAG 2.2 AA, zero violations) in each brand and theme, and watched for console errors and CSP
 * violations; each screen's reflow on small screens (no sideways scrolling), in the first brand; and then
 * each screen again in `alsoIn` (a right-to-left language), in the first brand, light and dark, with axe
 * and screenshots (`…-ar.png`).
 *
 * Each state is brought about once, in English on a server of the first brand, and then shown in each
 * brand and theme where it stands: the brand switches through the elements' `brand` attribute, as a host
 * page sets it, and the theme live, as it does from the header. Bringing the states about was half a
 * brand's sweep (docs/decisions/ci-time.md). The other language is shown where the state stands too,
 * through the elements' `lang` attribute: what is on screen follows a change of language, the messages
 * already shown included (docs/decisions/language-switch.md). The provider's own pages are the server's,
 * in its brand: each other brand gets a server of its own for them. One browser per file, also for the
 * file's other tests (returned with the first brand's server).
 *
 * Last, each state is switched where it stands to each `pseudo` locale (test/support/pseudo-locale.ts),
 * screenshotted (test-results/pseudo-locale/) and searched for text without its marks: text that came
 * from elsewhere than the locale files, or that did not follow the change of language.
 */
export function sweepScreens(
  brands: readonly [BrandName, ...BrandName[]],
  { alsoIn, pseudo = [] }: { alsoIn?: 'ar' | 'he'; pseudo?: readonly Pseudo[] } = {},
): BrowserHandle & ServerHandle {
  const [first] = brands;
  const e2e = useE2E({ BRAND: first, ...SHOTS_ENV });
  const t = translator(readLocale('en'));
  const other = alsoIn ? translator(readLocale(alsoIn), alsoIn) : null;
  const keys = keysOf(readLocale('en'));
  // A brand without a dark theme ignores darkMode: its dark screens would be its light ones again.
  const themesOf = (brand: BrandName): Theme[] => (BRANDS[brand].darkTheme ? ['light', 'dark'] : ['light']);
  const providerPages = brands.map((brand) => ({
    brand,
    at: brand === first ? e2e : useServer({ BRAND: brand, ...SHOTS_ENV }),
  }));
  describe(`screens, ${brands.length > 1 ? 'brands' : 'brand'} ${brands.join(', ')}${alsoIn ? `, and in ${alsoIn}` : ''}`, () => {
    it('captures every screen in each brand and theme with no accessibility violations', async () => {
      const failures: string[] = [];
      /** Screenshot and axe in each theme of `brand`, as the page stands (in light, the page's theme). */
      const look = async (page: Page, shot: Shot, brand: BrandName, suffix = '') => {
        const n = shot.name;
        for (const theme of themesOf(brand)) {
          if (theme !== 'light') await timed('showTheme', n, () => showTheme(page, theme));
          await timed(`screenshot ${theme}`, n, () =>
            screenshot(page, 'screens', `${n}-${brand}-${theme}${suffix}`),
          );
          // The dark theme changes colours only: the rest was checked in light, on this same document.
          const only = theme === 'light' ? 'all' : 'colours';
          for (const violation of await timed(`axe ${only}`, n, () => axeViolations(page, only)))
            failures.push(`${n} (${brand}, ${theme}${suffix}): ${violation}`);
        }
        if (themesOf(brand).includes('dark')) await timed('showTheme', n, () => showTheme(page, 'light'));
      };
      const keysShown = async (page: Page, shot: Shot, suffix = '') => {
        for (const key of await timed('raw keys', shot.name, () => rawKeys(page, keys)))
          failures.push(`${shot.name}${suffix}: shows the key ${key}, not its text`);
      };
      const context = await e2e.browser.newContext({ viewport: { width: 1024, height: 720 } });
      try {
        for (const locale of pseudo) await servePseudo(context, locale);
        const tab = await sweepTab(context);
        for (const shot of SHOTS) {
          const n = shot.name;
          const watch = await timed('tab.next', n, () => tab.next(expectedErrors(shot)));
          await timed('shot.show', n, () => shot.show(watch.page, e2e.server, t));
          await timed('hold', n, () => holdTransient(shot, watch.page, t));
          await keysShown(watch.page, shot);
          for (const brand of brands) {
            if (brand !== first) await timed('showBrand', n, () => showBrand(watch.page, brand));
            await look(watch.page, shot, brand);
          }
          if (await transientGone(shot, watch.page, t))
            failures.push(`${n}: the state was gone before axe finished`);
          if (brands.length > 1) await timed('showBrand', n, () => showBrand(watch.page, first));
          // A notice may go meanwhile: the screen under it is what has to fit.
          if (!HOST_PAGES.includes(n))
            failures.push(...(await timed('small screens', n, () => smallScreens(watch.page, n))));
          if (alsoIn && other) {
            await timed('showLanguage', n, () => showLanguage(watch.page, alsoIn, 'rtl'));
            await keysShown(watch.page, shot, ` (${alsoIn})`);
            await look(watch.page, shot, first, `-${alsoIn}`);
            if (await transientGone(shot, watch.page, other))
              failures.push(`${n} (${alsoIn}): the state was gone before axe finished`);
          }
          for (const { language, direction, marks, t: pt } of pseudo) {
            await timed('showLanguage', n, () => showLanguage(watch.page, language, direction));
            await timed('screenshot pseudo', n, () =>
              screenshot(watch.page, 'pseudo-locale', `${n}-${language}`),
            );
            // Dates and times are the browser's Intl's, in the pseudo-locale's language: data.
            for (const text of await timed('untranslated', n, () =>
              untranslated(watch.page, { intlTimes: true, marks }),
            ))
              failures.push(`${n} (pseudo-locale as ${language}): ${text}`);
            if (await transientGone(shot, watch.page, pt))
              failures.push(
                `${n} (pseudo-locale as ${language}): the state was gone before the walk finished`,
              );
          }
          assert.deepEqual(await timed('problems', n, () => watch.problems()), [], n);
        }
      } finally {
        await context.close();
      }
      assert.deepEqual(failures, []);
    });
    for (const { brand, at } of providerPages)
      it(`captures the OpenID Provider’s own pages in ${brand} (light, dark, 320 px) with no accessibility violations`, () =>
        sweepProviderPages(
          { browser: e2e.browser, withPage: e2e.withPage, server: at.server },
          brand,
          themesOf(brand).includes('dark'),
        ));
  });
  return e2e;
}
