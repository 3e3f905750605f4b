import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';
import { startTestServer, type TestServer } from './test-server';

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
  await watchCsp(context);
  const page = await context.newPage();
  const errors = watchConsole(page);
  errors.allow = allow;
  return { page, problems: () => problemsOf(page, errors.seen) };
}

/** Record `securitypolicyviolation` events in every document of the context, from its first script. */
async function watchCsp(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations!.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
}

/** Console errors (beyond `allow`) and uncaught exceptions of a page, as they come. */
function watchConsole(page: Page): { seen: string[]; allow: RegExp[] } {
  const state = { seen: [] as string[], allow: [] as RegExp[] };
  page.on('console', (message) => {
    if (message.type() === 'error' && !state.allow.some((pattern) => pattern.test(message.text()))) {
      state.seen.push(`console error: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => state.seen.push(`uncaught: ${error.message}`));
  return state;
}

async function problemsOf(page: Page, seen: string[]): Promise<string[]> {
  const csp = await page.evaluate(() => window.__cspViolations ?? []).catch(() => ['page gone']);
  return [...seen, ...csp.map((v) => `CSP violation: ${v}`)];
}

/** One tab that a sweep of many screens goes through (see `sweepTab`). */
export interface SweepTab {
  /**
   * Start the next screen: leave the last one's document, clear the cookies and the local storage of
   * every origin the tab has visited (the elements keep nothing else), and watch the page afresh (allowing `allow`).
   */
  next(allow?: RegExp[]): Promise<PageWatch>;
}

/**
 * A watched tab for a sweep over many screens (the screenshot, pseudo-locale and small-screen runs).
 * Each screen starts as a new visitor would — no cookies, empty storage, a new document — but in the same
 * tab: a new browser context per screen starts a renderer process and a cold HTTP cache, about a second
 * per screen, which over several hundred screens was most of the end-to-end run. Add init scripts to the
 * context before calling this.
 */
export async function sweepTab(context: BrowserContext): Promise<SweepTab> {
  await watchCsp(context);
  const page = await context.newPage();
  const errors = watchConsole(page);
  const origins = new Set<string>();
  page.on('framenavigated', (frame) => {
    const { origin } = new URL(frame.url());
    if (origin.startsWith('http')) origins.add(origin);
  });
  const cdp = await context.newCDPSession(page);
  // A shot may narrow the page (a phone's navigation); the next starts at the context's size again.
  const viewport = page.viewportSize();
  return {
    async next(allow = []) {
      await page.goto('about:blank');
      const now = page.viewportSize();
      if (viewport && (now?.width !== viewport.width || now.height !== viewport.height))
        await page.setViewportSize(viewport);
      await context.clearCookies();
      for (const origin of origins) {
        await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'local_storage' });
      }
      errors.seen.length = 0;
      errors.allow = allow;
      return { page, problems: () => problemsOf(page, errors.seen) };
    },
  };
}

/** Save a screenshot under test-results/<folder>/<name>.png for people to look at. */
export async function screenshot(page: Page, folder: string, name: string): Promise<string> {
  const dir = join(RESULTS, folder);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  try {
    await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  } catch (error) {
    // Headless Chromium now and then has no frame to give under load ("Unable to capture screenshot"):
    // a fault of the capture, not of the page. Once a frame has been drawn, the capture is tried again.
    if (!String(error).includes('Unable to capture screenshot')) throw error;
    await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => drawn(null))));
    await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  }
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

/** How long a file's browser or server may take to start or stop. */
const HOOK_TIMEOUT_MS = 120_000;

/** The shared browser of an end-to-end file, and `withPage` bound to it. */
export interface BrowserHandle {
  /** The browser (launched by the `before` hook: use it inside tests and hooks only). */
  readonly browser: Browser;
  withPage(
    test: (watch: PageWatch, context: BrowserContext) => Promise<void>,
    allow?: RegExp[],
  ): Promise<void>;
}

/** Launch Debian's Chromium before the tests of the current suite (or file) and close it after them. */
export function useBrowser(): BrowserHandle {
  let browser: Browser | undefined;
  // Bounded: a browser or server that never starts (or stops) fails the file instead of stalling the run.
  before(
    async () => {
      browser = await launchBrowser();
    },
    { timeout: HOOK_TIMEOUT_MS },
  );
  after(
    async () => {
      await browser?.close();
    },
    { timeout: HOOK_TIMEOUT_MS },
  );
  const handle: BrowserHandle = {
    get browser() {
      if (!browser) throw new Error('the browser starts in a before hook: use it inside tests');
      return browser;
    },
    withPage: (test, allow = []) => withPage(handle.browser, test, allow),
  };
  return handle;
}

/** The identity server of an end-to-end file. */
export interface ServerHandle {
  /** The server (started by the `before` hook: use it inside tests and hooks only). */
  readonly server: TestServer;
}

/** Server settings, or a function that makes them (it may start what they point at). */
export type ServerEnv =
  Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/**
 * Start the identity server (free ports, fresh seeded database) before the tests of the current suite
 * and stop it after them. `env` may be an async function, for settings known only once something else
 * runs (e.g. a test SMTP server's address): start that in the function, because Node 20 starts the
 * `before` hooks of a file together rather than one after another.
 */
export function useServer(env: ServerEnv = {}): ServerHandle {
  let server: TestServer | undefined;
  before(
    async () => {
      server = await startTestServer(typeof env === 'function' ? await env() : env);
    },
    { timeout: HOOK_TIMEOUT_MS },
  );
  after(
    async () => {
      await server?.close();
    },
    { timeout: HOOK_TIMEOUT_MS },
  );
  return {
    get server() {
      if (!server) throw new Error('the server starts in a before hook: use it inside tests');
      return server;
    },
  };
}

/**
 * The before/after pair every end-to-end file needs: a browser and an identity server, both closed
 * after the file's tests.
 *
 * ```ts
 * const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });
 * it('…', () => e2e.withPage(async ({ page }) => page.goto(`${e2e.server.url}/login/acme`)));
 * ```
 */
export function useE2E(env: ServerEnv = {}): BrowserHandle & ServerHandle {
  const browser = useBrowser();
  const server = useServer(env);
  return {
    get browser() {
      return browser.browser;
    },
    get server() {
      return server.server;
    },
    withPage: browser.withPage,
  };
}

/**
 * A user at the portal's team step (where an app's sign-in request lands without a team) names the
 * team and signs in there by password.
 */
export async function signInFromTeamStep(page: Page, team: string, email: string, password: string) {
  await page.waitForURL((address) => address.pathname === '/login/team');
  await page.getByLabel('Team name').fill(team);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((address) => address.pathname === `/login/${team}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Wait for something the page does after an animation (generous: a loaded CI machine is slow). */
export async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Wait until the code field (`name="code"`) has the focus and takes input: screens give it the focus
 * after they render, and keys typed before then go elsewhere.
 */
export async function codeFieldFocused(page: Page, timeout = 15_000) {
  await page.waitForFunction(
    () => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active instanceof HTMLInputElement && active.name === 'code' && !active.disabled;
    },
    undefined,
    { timeout },
  );
}
