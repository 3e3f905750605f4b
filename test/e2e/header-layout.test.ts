/**
 * The shared header's layout with long names, on the portal page and on a suite app of another origin:
 * Latin, CJK and Arabic script at 320, 768 and 1280 px wide — no sideways scroll, a round avatar, the
 * name cut short with an ellipsis, 'Go to dashboard' on one line, menus on the screen.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { screenshot, signInContext, useE2E } from '../support/browser';
import { sessionFor, tokenFor } from '../support/test-server';
import { readLocale, translator } from '../support/texts';

const e2e = useE2E();
const t = translator(readLocale('en'));

const WIDTHS = [320, 768, 1280] as const;
/** The window's height: a laptop's, browser bars taken away. */
const HEIGHT = 640;

/** Long names: what the server takes (at most 50 characters) and one only a database write can give. */
const NAMES = {
  latin: 'Bartholomew Wolfeschlegelsteinhausenbergerdorff Jr',
  latin60: 'Maximilianus Wolfeschlegelsteinhausenbergerdorff Alexandrova',
  cjk: '寿限無寿限無五劫の擦り切れ海砂利水魚の水行末雲来末風来末食う',
  arabic: 'عبد الرحمن بن محمد بن عبد العزيز بن عبد الله فيصل',
} as const;

const PAGES = [
  { name: 'portal', tag: 'acct-portal', url: () => `${e2e.server.url}/manage` },
  { name: 'suite-app', tag: 'acct-header', url: () => `${e2e.server.partnerUrl}/suite-app.html` },
] as const;

const length = (text: string) => Array.from(text).length;

/** Rename Ada as she would herself (POST /api/user), or straight in the database for what it refuses. */
async function rename(name: string): Promise<void> {
  if (length(name) > 50) {
    await e2e.server.server.db.kysely
      .updateTable('users')
      .set({ name })
      .where('email', '=', 'ada@acme.test')
      .execute();
    return;
  }
  const { accessToken } = await tokenFor(e2e.server.server.app, 'ada@acme.test');
  const response = await fetch(`${e2e.server.url}/api/user`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  assert.equal(response.status, 200, await response.text());
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}

interface Layout {
  page: { scrollWidth: number; clientWidth: number };
  header: Box;
  avatar: Box & { scrollWidth: number; clientWidth: number; scrollHeight: number; clientHeight: number };
  name: null | (Box & { scrollWidth: number; clientWidth: number; textOverflow: string });
  /** 'Go to dashboard': null when not shown; `lines` is how many lines its text takes. */
  dashboard: null | (Box & { lines: number; scrollWidth: number; clientWidth: number });
  /** Every control shown in the bar, by its text or label. */
  controls: Array<Box & { label: string }>;
}

/** Measures the header inside an element's shadow root (kept as source: it runs in the page). */
const MEASURE = `(element) => {
  const root = element.shadowRoot;
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
  };
  const shown = (el) => !!el && el.getClientRects().length > 0;
  const header = root.querySelector('header');
  const avatar = header.querySelector('.avatar-button .avatar');
  const name = header.querySelector('.avatar-button .header-name');
  const dashboard = [...header.querySelectorAll('a')].find((a) => a.textContent.trim() === 'Go to dashboard');
  const lines = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  };
  return {
    page: { scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth },
    header: box(header),
    avatar: { ...box(avatar), scrollWidth: avatar.scrollWidth, clientWidth: avatar.clientWidth,
      scrollHeight: avatar.scrollHeight, clientHeight: avatar.clientHeight },
    name: shown(name)
      ? { ...box(name), scrollWidth: name.scrollWidth, clientWidth: name.clientWidth,
          textOverflow: getComputedStyle(name).textOverflow }
      : null,
    dashboard: shown(dashboard)
      ? { ...box(dashboard), lines: lines(dashboard), scrollWidth: dashboard.scrollWidth, clientWidth: dashboard.clientWidth }
      : null,
    controls: [...header.querySelectorAll('a, button')].filter(shown).map((el) => ({
      ...box(el), label: el.getAttribute('aria-label') || el.textContent.trim(),
    })),
  };
}`;

/** Takes focus off whatever has it, through shadow roots (kept as source: it runs in the page). */
const BLUR = `(() => {
  let focused = document.activeElement;
  while (focused && focused.shadowRoot && focused.shadowRoot.activeElement) focused = focused.shadowRoot.activeElement;
  if (focused) focused.blur();
})()`;

/** Run a measuring function (source text) on the page's `tag` element. */
const measure = <T>(page: Page, source: string, tag: string) =>
  page.evaluate(`(${source})(document.querySelector(${JSON.stringify(tag)}))`) as Promise<T>;

/** What is wrong with the signed-in bar's layout, as readable lines (none when all is well). */
function layoutProblems(layout: Layout, viewport: number): string[] {
  const problems: string[] = [];
  const { page, header, avatar, name, dashboard, controls } = layout;
  if (page.scrollWidth > page.clientWidth)
    problems.push(`the page scrolls sideways: ${page.scrollWidth} > ${page.clientWidth}`);
  if (Math.abs(avatar.width - avatar.height) > 0.5)
    problems.push(`the avatar is not round: ${avatar.width} × ${avatar.height}`);
  if (avatar.scrollWidth > avatar.clientWidth || avatar.scrollHeight > avatar.clientHeight)
    problems.push(
      `the initials spill out of the avatar: ${avatar.scrollWidth}×${avatar.scrollHeight} in ${avatar.clientWidth}×${avatar.clientHeight}`,
    );
  if (name) {
    if (!(name.scrollWidth > name.clientWidth && name.textOverflow === 'ellipsis'))
      problems.push(
        `the name is not shortened with an ellipsis: ${name.scrollWidth} in ${name.clientWidth}, ${name.textOverflow}`,
      );
    if (name.right > header.right + 0.5 || name.left < header.left - 0.5)
      problems.push(
        `the name leaves the header: ${name.left}–${name.right} of ${header.left}–${header.right}`,
      );
  }
  if (dashboard && (dashboard.lines !== 1 || dashboard.scrollWidth > dashboard.clientWidth))
    problems.push(
      `'Go to dashboard' takes ${dashboard.lines} lines (${dashboard.scrollWidth} in ${dashboard.clientWidth})`,
    );
  for (const control of controls) {
    if (control.left < -0.5 || control.right > viewport + 0.5)
      problems.push(`'${control.label}' is off the screen: ${control.left}–${control.right}`);
  }
  return problems;
}

/** The open menu popup's box, for the check that it fits on the screen. */
async function popupBox(element: Locator): Promise<Box> {
  const popup = element.locator('[part="menu"]:not([hidden])');
  await popup.waitFor();
  return popup.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
  });
}

async function signedInContext(width: number): Promise<BrowserContext> {
  const context = await e2e.browser.newContext({ viewport: { width, height: HEIGHT } });
  await signInContext(context, (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
  return context;
}

describe('the header with a long name', () => {
  it('uses names of the lengths under test', () => {
    assert.equal(length(NAMES.latin), 50);
    assert.equal(length(NAMES.latin60), 60);
    assert.equal(length(NAMES.cjk), 30);
    assert.ok(length(NAMES.arabic) <= 50, 'the server takes it');
  });

  for (const [key, name] of Object.entries(NAMES)) {
    it(`keeps the bar in shape with ${key} name "${name}" at ${WIDTHS.join(', ')} px`, async () => {
      await rename(name);
      const problems: string[] = [];
      // Each page is loaded once; the width changes with the window, as a person would resize it.
      const context = await signedInContext(WIDTHS[0]);
      try {
        const page = await context.newPage();
        for (const target of PAGES) {
          await page.goto(target.url());
          const element = page.locator(target.tag);
          const account = element.getByRole('button', { name: t('header.accountMenu', { name }) });
          await account.waitFor();
          // The dashboard link comes with the switcher's answer (it is in the page even where hidden).
          await element.locator('a', { hasText: t('header.goToDashboard') }).waitFor({ state: 'attached' });
          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: HEIGHT });
            const where = `${target.name} at ${width} px`;
            await screenshot(page, 'e2e/header', `${target.name}-${key}-${width}`);
            problems.push(
              ...layoutProblems(await measure<Layout>(page, MEASURE, target.tag), width).map(
                (p) => `${where}: ${p}`,
              ),
            );

            // The full name stays in the menu, which fits on the screen.
            await account.click();
            const popup = await popupBox(element);
            const shownName = element.locator('[part="menu"] .menu-name');
            assert.equal((await shownName.textContent())?.trim(), name, where);
            const nameFits = await shownName.evaluate((el) => el.scrollWidth <= el.clientWidth);
            if (!nameFits) problems.push(`${where}: the name overflows the menu`);
            if (popup.left < 0 || popup.right > width)
              problems.push(`${where}: the account menu is off the screen (${popup.left}–${popup.right})`);
            await screenshot(page, 'e2e/header', `${target.name}-${key}-${width}-menu`);
            await page.keyboard.press('Escape');

            const language = element.getByRole('button', {
              name: t('header.language', { language: 'English' }),
            });
            await language.click();
            const languages = await popupBox(element);
            if (languages.left < 0 || languages.right > width)
              problems.push(
                `${where}: the language menu is off the screen (${languages.left}–${languages.right})`,
              );
            // Twenty languages fit in the window (in two columns), the last one too once focused.
            if (languages.bottom > HEIGHT)
              problems.push(`${where}: the language menu runs below the window (${languages.bottom})`);
            await page.keyboard.press('End');
            await screenshot(page, 'e2e/header', `${target.name}-${key}-${width}-languages`);
            const last = await element.locator('[part="menu"]:not([hidden]) :focus').evaluate((el) => {
              const r = el.getBoundingClientRect();
              return { top: r.top, bottom: r.bottom, text: el.textContent };
            });
            if (last.top < languages.top || last.bottom > Math.min(languages.bottom, HEIGHT))
              problems.push(`${where}: the last language (${last.text}) is out of sight once focused`);
            await page.keyboard.press('Escape');
            // Focus goes back to the language button: off it, for the next width's screenshot.
            await page.evaluate(BLUR);
          }
        }
      } finally {
        await context.close();
      }
      assert.deepEqual(problems, []);
    });
  }
});
