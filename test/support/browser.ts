import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

export const RESULTS = resolve(import.meta.dirname, '..', '..', 'test-results');

/** Debian's headless Chromium (see chromium.mjs for the flags). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', ...CHROMIUM_ARGS] });
}

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** What went wrong on a page: console errors, uncaught exceptions and CSP violations. */
export interface PageWatch {
  page: Page;
  problems(): Promise<string[]>;
}

/**
 * A page that records every console error, uncaught exception and `securitypolicyviolation` event from
 * the first script on, for the test to assert there were none. `allow` lists console errors a test
 * expects — Chromium logs every 4xx answer as "Failed to load resource", so a test of a refused sign-in
 * allows exactly that status.
 */
export async function watchedPage(context: BrowserContext, allow: RegExp[] = []): Promise<PageWatch> {
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations!.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  const page = await context.newPage();
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !allow.some((pattern) => pattern.test(message.text()))) {
      seen.push(`console error: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => seen.push(`uncaught: ${error.message}`));
  return {
    page,
    async problems() {
      const csp = await page.evaluate(() => window.__cspViolations ?? []).catch(() => ['page gone']);
      return [...seen, ...csp.map((v) => `CSP violation: ${v}`)];
    },
  };
}

/** Save a screenshot under test-results/<folder>/<name>.png for people to look at. */
export async function screenshot(page: Page, folder: string, name: string): Promise<string> {
  const dir = join(RESULTS, folder);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

export const TAGS = ['acct-portal', 'acct-header', 'acct-login', 'acct-manage', 'acct-token'] as const;

/** Wait until every acct-* element on the page has rendered past its language loading. */
export async function elementsRendered(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const elements = [...document.querySelectorAll('*')].filter((el) => el.tagName.startsWith('ACCT-'));
    return (
      elements.length > 0 &&
      elements.every((el) => el.shadowRoot?.querySelector('.acct-root[aria-busy="false"]'))
    );
  });
}

/** Chromium's console line for an expected error answer. */
export function failedResource(status: number): RegExp {
  return new RegExp(`^Failed to load resource: the server responded with a status of ${status}\\b`);
}

/**
 * Give a browser context the session cookie of a seeded user (made directly in the database), for
 * screens that need someone signed in whose way of signing in is not under test.
 */
export async function signInContext(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([
    {
      name: 'acct_session',
      value: token,
      domain: 'localhost',
      path: '/',
      httpOnly: true,
      secure: true,
      sameSite: 'None',
    },
  ]);
}

/**
 * Run a test in a fresh browser context with a watched page, then assert the page had no console
 * errors (beyond `allow`), uncaught exceptions or CSP violations.
 */
export async function withPage(
  browser: Browser,
  test: (watch: PageWatch, context: BrowserContext) => Promise<void>,
  allow: RegExp[] = [],
): Promise<void> {
  const context = await browser.newContext();
  try {
    const watch = await watchedPage(context, allow);
    await test(watch, context);
    assert.deepEqual(await watch.problems(), []);
  } finally {
    await context.close();
  }
}
