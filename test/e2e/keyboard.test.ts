/**
 * Keyboard-only journeys: sign in, open the user menu and sign out, a two-step sign-in's code, rename
 * in the dialog, generate a token — with Tab, Shift+Tab, Enter, Space, Escape and the arrow keys only, and a visible
 * focus indicator on everything reached. Also: reduced motion (the screens sweep checks small screens).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { failedResource, signInContext, useE2E } from '../support/browser';
import { sessionFor } from '../support/test-server';
import { appOf, memberWithApp } from '../support/two-step';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });

const { withPage } = e2e;

interface Focused {
  tag: string;
  type: string | null;
  text: string;
  label: string | null;
  outline: string;
}

/**
 * Run in the page: the focused element (looking into shadow roots) if it has every property of `want`,
 * else false. A function, not source text: Playwright compiles it once, so the page's CSP (no
 * 'unsafe-eval') lets `waitForFunction` poll it. It defines no named function inside, so the TypeScript
 * loader puts none of its helpers in its source.
 */
const focusedIf = (want: Partial<Focused>): Focused | false => {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  if (!active) return false;
  const style = getComputedStyle(active);
  const now: Focused = {
    tag: active.tagName,
    type: active.getAttribute('type'),
    text: (active.textContent ?? '').trim(),
    label: active.getAttribute('aria-label'),
    outline: `${style.outlineStyle} ${style.outlineWidth}`,
  };
  return Object.entries(want).every(([key, value]) => now[key as keyof Focused] === value) && now;
};

const focused = async (page: Page): Promise<Focused> => {
  const now = await page.evaluate(focusedIf, {});
  assert.ok(now, 'something has focus');
  return now;
};

const matches = (now: Focused, want: Partial<Focused>) =>
  Object.entries(want).every(([key, value]) => now[key as keyof Focused] === value);

/** Wait until the focused element has every property of `want`. */
async function focusIs(page: Page, want: Partial<Focused>, timeoutMs = 5000): Promise<void> {
  try {
    await page.waitForFunction(focusedIf, want, { timeout: timeoutMs });
  } catch (error) {
    const now = JSON.stringify(await focused(page));
    throw new Error(`focus never got to ${JSON.stringify(want)} (now on ${now})`, { cause: error });
  }
}

/** The focused element shows a focus ring (an outline: the stylesheet draws focus with one). */
function assertVisibleFocus(now: Focused) {
  assert.notEqual(
    now.outline.split(' ')[0],
    'none',
    `visible focus on ${now.tag} "${now.text || now.label}"`,
  );
  assert.notEqual(now.outline.split(' ')[1], '0px', `visible focus on ${now.tag} "${now.text || now.label}"`);
}

/** Press Tab (or Shift+Tab) until the focused element has every property of `want`; every stop must show a focus ring. */
async function tabTo(page: Page, want: Partial<Focused>, backwards = false, limit = 40): Promise<Focused> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    if (now.tag !== 'BODY') assertVisibleFocus(now);
    if (matches(now, want)) return now;
  }
  throw new Error('never reached the element with the keyboard');
}

describe('keyboard-only journeys', () => {
  it('signs in, opens the user menu with the arrow keys and signs out', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/login/team`);
      await page.locator('acct-portal input').first().waitFor();
      await focusIs(page, { tag: 'INPUT' });
      await page.keyboard.type('acme');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${e2e.server.url}/login/acme`);
      await page.getByLabel('Email').waitFor();
      await focusIs(page, { tag: 'INPUT' });
      await page.keyboard.type('ada@acme.test');
      await page.keyboard.press('Tab');
      await page.keyboard.type(DEMO_PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${e2e.server.url}/manage`);
      // Signed in, focus is on the new screen's heading, not lost to the page's body.
      await focusIs(page, { tag: 'H1' });
      // The menu's Dashboard item comes with the switcher's answer, as the header's link does.
      await page.locator('acct-portal a', { hasText: 'Go to dashboard' }).waitFor({ state: 'attached' });
      await tabTo(page, { label: 'Account menu for Ada Lovelace' }, true);
      await page.keyboard.press('Enter');
      const first = await focused(page);
      assert.equal(first.text, 'Dashboard');
      assertVisibleFocus(first);
      await page.keyboard.press('ArrowUp');
      const last = await focused(page);
      assert.equal(last.text, 'Sign out');
      assertVisibleFocus(last);
      await page.keyboard.press('ArrowUp');
      const previous = await focused(page);
      assert.equal(previous.text, 'Privacy policy');
      assertVisibleFocus(previous);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Escape');
      assert.equal((await focused(page)).label, 'Account menu for Ada Lovelace');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${e2e.server.url}/login/team`);
    });
  });

  it('after a failed sign-in, focus is on the password field, ready to type it again', async () => {
    await withPage(
      async ({ page }) => {
        await page.goto(`${e2e.server.url}/login/acme`);
        await page.getByLabel('Email').waitFor();
        await focusIs(page, { tag: 'INPUT' });
        await page.keyboard.type('ada@acme.test');
        await page.keyboard.press('Tab');
        await page.keyboard.type('not-the-password');
        await page.keyboard.press('Enter');
        await page.getByRole('alert').filter({ hasText: 'The email or password is incorrect.' }).waitFor();
        await focusIs(page, { tag: 'INPUT', type: 'password' });
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.type(DEMO_PASSWORD);
        await page.keyboard.press('Enter');
        await page.waitForURL(`${e2e.server.url}/manage`);
        await focusIs(page, { tag: 'H1' });
      },
      [failedResource(401)],
    );
  });

  it('finishes a two-step sign-in: a wrong code, a recovery code, all by keyboard', async () => {
    const email = 'keyboard-two-step@acme.test';
    const { recoveryCodes } = await memberWithApp(appOf(e2e.server), email);
    await withPage(
      async ({ page }) => {
        await page.goto(`${e2e.server.url}/login/acme`);
        await page.getByLabel('Email').waitFor();
        await focusIs(page, { tag: 'INPUT' });
        await page.keyboard.type(email);
        await page.keyboard.press('Tab');
        await page.keyboard.type(DEMO_PASSWORD);
        await page.keyboard.press('Enter');
        // The second step opens with focus in its code field.
        await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
        await focusIs(page, { tag: 'INPUT' });
        await page.keyboard.type('12345x');
        await page.keyboard.press('Enter');
        await page.getByText('That code is not right').waitFor();
        await focusIs(page, { tag: 'INPUT' });
        await tabTo(page, { text: 'Use a recovery code instead' });
        await page.keyboard.press('Enter');
        await page.getByLabel('Recovery code').waitFor();
        await focusIs(page, { tag: 'INPUT' });
        await page.keyboard.type(recoveryCodes[0]!);
        await page.keyboard.press('Enter');
        await page.waitForURL(`${e2e.server.url}/manage`);
        await focusIs(page, { tag: 'H1' });
      },
      [failedResource(401)],
    );
  });

  it('renames in the dialog and generates a token', async () => {
    await withPage(async ({ page }) => {
      await signInContext(
        page.context(),
        (await sessionFor(e2e.server.server.app, 'carol@globex.test')).token,
      );
      await page.goto(`${e2e.server.url}/manage`);
      await page.getByRole('heading', { name: 'Personal info' }).waitFor();
      await tabTo(page, { label: 'Edit name' });
      await page.keyboard.press('Enter');
      await page.locator('acct-portal dialog[open] input[name="name"]').waitFor();
      const field = await focused(page);
      assert.equal(field.tag, 'INPUT');
      assertVisibleFocus(field);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Carol D. Keys');
      await page.keyboard.press('Enter');
      await page.getByText('Name updated').waitFor();
      await focusIs(page, { label: 'Edit name' });
      await page.keyboard.press('Enter');
      await page.locator('acct-portal dialog[open]').waitFor();
      await page.keyboard.press('Escape');
      await page.locator('acct-portal dialog[open]').waitFor({ state: 'detached' });

      await tabTo(page, { text: 'Developer tools' }, true);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${e2e.server.url}/manage/dev`);
      await page.getByRole('checkbox', { name: /Job_Read/ }).waitFor();
      await tabTo(page, { tag: 'INPUT' });
      await page.keyboard.press('Space');
      await tabTo(page, { text: 'Generate access token' });
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/manage/dev/success');
      await page.getByLabel('Access token', { exact: true }).waitFor();
    });
  });
});

describe('motion', () => {
  it('drops the animations when reduced motion is asked for', async () => {
    const context = await e2e.browser.newContext({ reducedMotion: 'reduce' });
    try {
      const page = await context.newPage();
      await signInContext(context, (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
      await page.goto(`${e2e.server.url}/manage`);
      await page.getByRole('button', { name: 'Edit name' }).click();
      const duration = await page
        .locator('acct-portal dialog[open]')
        .evaluate((el) => getComputedStyle(el).animationDuration);
      assert.ok(parseFloat(duration) < 0.001, `animation ${duration}`);
    } finally {
      await context.close();
    }
  });
});
