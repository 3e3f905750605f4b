/**
 * The sessions and security activity screens (/manage/sessions, /manage/activity) against the real
 * server: two browsers signed in as one user through the sign-in screen, each seeing both sessions and
 * itself as this device; ending the other (its next call is unauthenticated), signing out everywhere
 * else, a failed sign-in in the owner's log, and the keyboard alone.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import {
  failedResource,
  screenshot,
  signInContext,
  until,
  useE2E,
  watchedPage,
  type PageWatch,
} from '../support/browser';
import { sessionFor } from '../support/test-server';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A browser of its own (cookies, storage) that says it is `userAgent`, watched for console errors. */
async function browserAs(
  userAgent: string,
  allow: RegExp[] = [],
): Promise<PageWatch & { context: BrowserContext }> {
  const context = await e2e.browser.newContext({ userAgent });
  return { context, ...(await watchedPage(context, allow)) };
}

/** Sign in through the sign-in screen, coming back to `path`. */
async function signIn(page: Page, email: string, team: string, path: string, password = DEMO_PASSWORD) {
  await page.goto(`${e2e.server.url}/login/${team}?${new URLSearchParams({ ReturnUrl: path })}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
}

const sessionsList = (page: Page) => page.getByRole('region', { name: 'Signed-in sessions' });
const rows = (page: Page) => sessionsList(page).getByRole('listitem');

/** Whether the page's browser still has a session, asked as the portal asks. */
const signedIn = (page: Page) =>
  page.evaluate(async () => {
    const xsrf = /(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const response = await fetch('/account/check', {
      method: 'POST',
      headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) },
    });
    return ((await response.json()) as { authenticated: boolean }).authenticated;
  });

/** The access token the page's portal holds, as its last API call sent it. */
function tokenOf(page: Page): () => string | null {
  let token: string | null = null;
  page.on('request', (request) => {
    const header = request.headers().authorization;
    if (header?.startsWith('Bearer ')) token = header.slice(7);
  });
  return () => token;
}

const bearerStatus = async (token: string) =>
  (await fetch(`${e2e.server.url}/api/user/permissions`, { headers: { authorization: `Bearer ${token}` } }))
    .status;

/** The element that has focus, looking into shadow roots: its accessible label or text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.getAttribute('aria-label') ?? active?.textContent?.trim() ?? '';
  });

async function tabTo(page: Page, name: string, most = 40) {
  for (let i = 0; i < most; i++) {
    if ((await focused(page)) === name) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached "${name}" (at "${await focused(page)}")`);
}

describe('sessions', () => {
  it('lists both browsers, this device marked; ending the other stops its cookie and token', async () => {
    const one = await browserAs(CHROME_LINUX);
    const two = await browserAs(CHROME_WINDOWS);
    try {
      const twoToken = tokenOf(two.page);
      await signIn(one.page, 'carol@globex.test', 'globex', '/manage/sessions');
      await signIn(two.page, 'carol@globex.test', 'globex', '/manage/sessions');
      for (const [page, mine, other] of [
        [one.page, 'Chrome on Linux', 'Chrome on Windows'],
        [two.page, 'Chrome on Windows', 'Chrome on Linux'],
      ] as const) {
        await page.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
        await page.reload();
        await rows(page).nth(1).waitFor();
        assert.equal(await rows(page).count(), 2);
        const current = rows(page).filter({ hasText: 'This device' });
        await current.getByText(mine).waitFor();
        assert.equal(await current.getByRole('button').count(), 0);
        await rows(page)
          .filter({ hasText: other })
          .getByRole('button', { name: `End the session of ${other}` })
          .waitFor();
      }
      await screenshot(one.page, 'e2e/account', 'sessions');
      assert.ok(twoToken(), 'the second browser called the API with a token');
      assert.equal(await bearerStatus(twoToken()!), 200);

      // Cancel ends nothing; End session ends it.
      await one.page.getByRole('button', { name: 'End the session of Chrome on Windows' }).click();
      const question = one.page.getByRole('alertdialog', { name: 'End this session?' });
      await question
        .getByText(/^Chrome on Windows \(signed in: .+\) will be signed out at once\.$/)
        .waitFor();
      await question.getByRole('button', { name: 'Cancel' }).click();
      await question.waitFor({ state: 'detached' });
      assert.equal(await signedIn(two.page), true);
      await one.page.getByRole('button', { name: 'End the session of Chrome on Windows' }).click();
      await question.getByRole('button', { name: 'End session' }).click();
      await one.page.getByText('Session ended', { exact: true }).first().waitFor();
      await rows(one.page).filter({ hasText: 'Chrome on Windows' }).waitFor({ state: 'detached' });
      await one.page.getByText('You are signed in on this device only.').waitFor();

      // The other browser: its cookie and the token it holds are refused on their next use.
      assert.equal(await bearerStatus(twoToken()!), 401);
      await two.page.reload();
      await two.page.waitForURL(/\/login\/team\?ReturnUrl=%2Fmanage%2Fsessions/);
      assert.equal(await signedIn(two.page), false);

      // The first browser's log says so.
      await one.page
        .getByRole('navigation', { name: 'Account' })
        .getByRole('link', { name: 'Security activity' })
        .click();
      const log = one.page.getByRole('region', { name: 'Account events' });
      await log
        .getByRole('listitem')
        .filter({ hasText: 'Session ended' })
        .getByText('Chrome on Windows')
        .waitFor();
      assert.deepEqual(await one.problems(), []);
      assert.deepEqual(await two.problems(), []);
    } finally {
      await one.context.close();
      await two.context.close();
    }
  });

  it('tells apart two sessions of the same browser: when each signed in, on the row and its button', async () => {
    const clock = e2e.server.clock;
    const browsers = [
      await browserAs(CHROME_LINUX),
      await browserAs(CHROME_LINUX),
      await browserAs(CHROME_LINUX),
    ];
    try {
      // Two sessions signed in half an hour apart, both 'about 2 hours ago'; then this one, now.
      for (const [i, { page }] of browsers.entries()) {
        clock.offset = [-160, -130, 0][i]! * 60_000;
        await signIn(page, 'ada@acme.test', 'acme', '/manage/sessions');
        await rows(page).first().waitFor();
      }
      const { page } = browsers[2]!;
      await page.reload();
      await rows(page).nth(2).waitFor();
      const others = rows(page).filter({ hasNotText: 'This device' });
      assert.equal(await others.count(), 2);
      const texts = await others.allInnerTexts();
      assert.notEqual(texts[0], texts[1], 'the two rows read differently');
      for (const text of texts) assert.match(text, /Signed in: .*\d{1,2}:\d{2}/);
      const ends = others.getByRole('button', {
        name: /^End the session of Chrome on Linux \(signed in: .+\)$/,
      });
      assert.equal(await ends.count(), 2);
      const names = await ends.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
      assert.notEqual(names[0], names[1], 'the two End buttons are named apart');
      await screenshot(page, 'e2e/account', 'sessions-same-browser');
      for (const browser of browsers) assert.deepEqual(await browser.problems(), []);
    } finally {
      clock.offset = 0;
      for (const browser of browsers) await browser.context.close();
    }
  });

  it('signs out everywhere else with the keyboard alone, keeping this browser', async () => {
    const browsers = [
      await browserAs(CHROME_LINUX),
      await browserAs(CHROME_WINDOWS),
      await browserAs(CHROME_MAC),
    ];
    try {
      for (const { page } of browsers) await signIn(page, 'ada@acme.test', 'acme', '/manage/sessions');
      const { page } = browsers[0]!;
      await page.reload();
      await rows(page).nth(2).waitFor();
      const count = await rows(page).count();
      assert.ok(count >= 3, `${count} sessions`);

      await tabTo(page, 'Sign out everywhere else');
      await page.keyboard.press('Enter');
      const question = page.getByRole('alertdialog', { name: 'Sign out everywhere else?' });
      await question.waitFor();
      // Cancel has focus: Enter at once would end nothing; Tab to the action instead.
      assert.equal(await focused(page), 'Cancel');
      await screenshot(page, 'e2e/account', 'sign-out-others');
      await page.keyboard.press('Tab');
      assert.equal(await focused(page), 'Sign out others');
      await page.keyboard.press('Enter');
      await page.getByText(`${count - 1} sessions ended`).waitFor();
      await rows(page).nth(1).waitFor({ state: 'detached' });
      await rows(page).filter({ hasText: 'This device' }).getByText('Chrome on Linux').waitFor();
      // The button that opened the question is gone (nothing else to end): focus is on the list's heading.
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      await until(async () => (await focused(page)) === 'Signed-in sessions', 'focus on the heading');
      assert.equal(await page.getByRole('button', { name: 'Sign out everywhere else' }).count(), 0);
      assert.equal(await signedIn(page), true);
      for (const other of browsers.slice(1)) {
        await other.page.reload();
        await other.page.waitForURL(/\/login\/team\?ReturnUrl=%2Fmanage%2Fsessions/);
        assert.equal(await signedIn(other.page), false);
      }
      for (const browser of browsers) assert.deepEqual(await browser.problems(), []);
    } finally {
      for (const browser of browsers) await browser.context.close();
    }
  });
});

describe('changing the password', () => {
  it('offers to keep the other sessions; by default it ends them', async () => {
    const one = await browserAs(CHROME_LINUX);
    const two = await browserAs(CHROME_WINDOWS);
    try {
      await signIn(one.page, 'carol@globex.test', 'globex', '/manage');
      await signIn(two.page, 'carol@globex.test', 'globex', '/manage/sessions');
      await rows(two.page).first().waitFor();
      const change = async (signOutOthers: boolean) => {
        await one.page.getByRole('button', { name: 'Change password' }).click();
        const form = one.page.locator('acct-portal dialog[open]');
        await form.getByLabel('Current password').fill(DEMO_PASSWORD);
        await form.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
        await form.getByLabel('Confirm new password').fill('a brand new passphrase');
        const box = form.getByRole('checkbox', { name: 'Also sign out of my other sessions' });
        assert.equal(await box.isChecked(), true);
        if (!signOutOthers) await box.uncheck();
        await form.getByRole('button', { name: 'Change password' }).click();
        await form.waitFor({ state: 'detached' });
      };
      await change(false);
      assert.equal(await signedIn(two.page), true);
      // Back to the demo password, this time signing the other browser out.
      await one.page.getByRole('button', { name: 'Change password' }).click();
      const form = one.page.locator('acct-portal dialog[open]');
      await form.getByLabel('Current password').fill('a brand new passphrase');
      await form.getByLabel('New password', { exact: true }).fill(DEMO_PASSWORD);
      await form.getByLabel('Confirm new password').fill(DEMO_PASSWORD);
      await form.getByRole('button', { name: 'Change password' }).click();
      await form.waitFor({ state: 'detached' });
      await two.page.reload();
      await two.page.waitForURL(/\/login\/team\?ReturnUrl=%2Fmanage%2Fsessions/);
      assert.deepEqual(await one.problems(), []);
      assert.deepEqual(await two.problems(), []);
    } finally {
      await one.context.close();
      await two.context.close();
    }
  });
});

describe('security activity', () => {
  it("shows a failed sign-in to the address's owner, newest first", async () => {
    const stranger = await browserAs(CHROME_WINDOWS, [failedResource(401)]);
    const owner = await browserAs(CHROME_LINUX);
    try {
      await signIn(stranger.page, 'ada@acme.test', 'acme', '/manage', 'wrong-password-here');
      await stranger.page.getByText('The email or password is incorrect.').waitFor();
      await signIn(owner.page, 'ada@acme.test', 'acme', '/manage/activity');
      const log = owner.page.getByRole('region', { name: 'Account events' });
      const entries = log.getByRole('listitem');
      await entries.first().waitFor();
      // The newest: the owner's own sign-in, then the failed one from the other browser.
      await entries.nth(0).getByText('Signed in').waitFor();
      await entries.nth(0).getByText('Method: password · Chrome on Linux').waitFor();
      await entries.nth(1).getByText('Failed sign-in').waitFor();
      await entries.nth(1).getByText('Method: password · Chrome on Windows').waitFor();
      await screenshot(owner.page, 'e2e/account', 'activity');
      assert.deepEqual(await stranger.problems(), []);
      assert.deepEqual(await owner.problems(), []);
    } finally {
      await stranger.context.close();
      await owner.context.close();
    }
  });

  it('shows its empty state, and its error state with a retry', async () => {
    await e2e.withPage(
      async ({ page }) => {
        // Bob signs in with a provider only, and this session was made directly: his log is empty.
        await signInContext(page.context(), (await sessionFor(e2e.server.server.app, 'bob@acme.test')).token);
        await page.goto(`${e2e.server.url}/manage/activity`);
        await page.getByText('No security activity in the last 90 days.').waitFor();
        let fail = true;
        await page.route('**/api/user/activity**', (route) => (fail ? route.abort() : route.continue()));
        await page.reload();
        await page.getByRole('alert').getByText('Something went wrong. Please try again.').waitFor();
        await screenshot(page, 'e2e/account', 'activity-failed');
        fail = false;
        await page.getByRole('button', { name: 'Try again' }).click();
        await page.getByText('No security activity in the last 90 days.').waitFor();
      },
      [/Failed to load resource: net::ERR_FAILED/],
    );
  });
});
