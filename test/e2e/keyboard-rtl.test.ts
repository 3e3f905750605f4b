/**
 * A keyboard-only journey in Hebrew, right to left: the visitor's browser speaks Hebrew, the portal
 * mirrors (its page and its elements' roots `dir="rtl"`), the address and password fields stay left to
 * right, the account menu opens on the left (its button's end) and is walked with the arrow keys, and
 * sign-out ends it — with Tab, Shift+Tab, Enter, Escape and the arrow keys only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { useE2E } from '../support/browser';
import { readLocale, translator } from '../support/texts';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });
const t = translator(readLocale('he'), 'he');

/** The focused element, looking into shadow roots: its tag, text, label and direction. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return {
      tag: active?.tagName ?? '',
      text: (active?.textContent ?? '').trim(),
      label: active?.getAttribute('aria-label') ?? null,
      direction: active ? getComputedStyle(active).direction : '',
    };
  });

async function focusIs(page: Page, want: { tag?: string; text?: string; label?: string }): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const now = await focused(page);
    if (Object.entries(want).every(([key, value]) => now[key as keyof typeof now] === value)) return;
    await page.waitForTimeout(100);
  }
  assert.fail(`focus never got to ${JSON.stringify(want)} (now on ${JSON.stringify(await focused(page))})`);
}

describe('a keyboard journey in Hebrew', () => {
  it('signs in, walks the account menu opened on the left, and signs out, right to left', async () => {
    const context = await e2e.browser.newContext({ locale: 'he-IL' });
    try {
      const page = await context.newPage();
      await page.goto(`${e2e.server.url}/login/team`);
      await page.getByLabel(t('login.team.label')).waitFor();
      // The portal owns its page: the document is Hebrew and right to left, as is the element's root.
      assert.deepEqual(
        await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
        ['he', 'rtl'],
      );
      assert.equal(await page.locator('acct-portal .acct-root').first().getAttribute('dir'), 'rtl');
      await focusIs(page, { tag: 'INPUT' });
      await page.keyboard.type('acme');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${e2e.server.url}/login/acme`);
      await page.getByLabel(t('login.email')).waitFor();
      await focusIs(page, { tag: 'INPUT' });
      // An address reads left to right inside the Hebrew form.
      assert.equal((await focused(page)).direction, 'ltr');
      await page.keyboard.type('ada@acme.test');
      await page.keyboard.press('Tab');
      assert.equal((await focused(page)).direction, 'ltr');
      await page.keyboard.type(DEMO_PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${e2e.server.url}/manage`);
      await focusIs(page, { tag: 'H1' });
      // The menu's Dashboard item comes with the switcher's answer, as the header's link does.
      await page
        .locator('acct-portal a', { hasText: t('header.goToDashboard') })
        .waitFor({ state: 'attached' });

      const menuLabel = t('header.accountMenu', { name: 'Ada Lovelace' });
      for (let i = 0; i < 40 && (await focused(page)).label !== menuLabel; i++)
        await page.keyboard.press('Shift+Tab');
      await focusIs(page, { label: menuLabel });
      await page.keyboard.press('Enter');
      await focusIs(page, { text: t('header.dashboard') });
      // The popup hangs from its button's end, which is its left in right to left.
      const button = await page.getByRole('button', { name: menuLabel }).boundingBox();
      const popup = await page.getByRole('menu', { name: menuLabel }).boundingBox();
      assert.ok(button && popup);
      assert.ok(
        Math.abs(popup.x - button.x) < 20,
        `the menu starts at its button's left (${popup.x}, ${button.x})`,
      );
      await page.keyboard.press('ArrowUp');
      await focusIs(page, { text: t('header.signOut') });
      await page.keyboard.press('Escape');
      await focusIs(page, { label: menuLabel });
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${e2e.server.url}/login/team`);
    } finally {
      await context.close();
    }
  });
});
