/**
 * The built bundle in a browser: the classic-script build on its own under the
 * server's strict CSP, and the lazily loaded chunks fetched only by the screens that need them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import ts from 'typescript';
import { PAGE_CSP } from '../../demo/server/plugins/security';
import { elementsRendered, signInContext, TAGS, useE2E } from '../support/browser';
import { sessionFor } from '../support/test-server';
import { chunksWithSource, ENTRY, LAZY_PARTS } from '../build/graph';

const e2e = useE2E();
const { withPage } = e2e;

/**
 * Serve `html` at `path` on the identity server's origin with the headers of a real page of that
 * server (its strict CSP, its XSRF cookie), as if the server had such a page.
 */
async function hostPage(page: Page, path: string, html: string): Promise<void> {
  await page.route(`${e2e.server.url}${path}`, async (route) => {
    const real = await route.fetch({ url: `${e2e.server.url}/login/team` });
    await route.fulfill({ response: real, body: html });
  });
}

/** The bundle's ESM entry, as a host page loads it. */
const ESM_ENTRY = '<script type="module" src="/dist/acct-elements.js"></script>';

/** The paths of every request the page makes from now on. */
function recordRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

/**
 * Open a page of the identity server's origin holding one `<acct-login team>`, loading the bundle with
 * `script`; the paths of every request it makes are recorded.
 */
async function openLoginPage(page: Page, path: string, title: string, script: string, team: string) {
  await hostPage(
    page,
    path,
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title}</title>
    ${script}
  </head>
  <body>
    <acct-login team="${team}"></acct-login>
  </body>
</html>`,
  );
  const requests = recordRequests(page);
  const response = await page.goto(`${e2e.server.url}${path}`);
  return { requests, response };
}

describe('the classic-script build', () => {
  it('defines all five elements from dist/acct-elements.iife.js alone, under the strict CSP', async () => {
    await withPage(async ({ page }) => {
      const { requests, response } = await openLoginPage(
        page,
        '/iife.html',
        'acct-elements as a classic script',
        '<script src="/dist/acct-elements.iife.js"></script>',
        'acme',
      );
      assert.equal(response?.headers()['content-security-policy'], PAGE_CSP);
      const defined = await page.evaluate(
        (tags) => tags.filter((tag) => customElements.get(tag) !== undefined),
        [...TAGS],
      );
      assert.deepEqual(defined, [...TAGS]);
      await elementsRendered(page);
      await page.locator('acct-login').getByRole('heading', { name: 'Sign in to Acme' }).waitFor();
      await page.locator('acct-login').getByLabel('Email').waitFor();
      await page.locator('acct-login').getByLabel('Password').waitFor();
      // Everything is in the one script: no module entry, no chunk.
      const bundle = requests.filter((path) => path.startsWith('/dist/'));
      assert.deepEqual(bundle, ['/dist/acct-elements.iife.js']);
    });
  });
});

describe('the ESM entry', () => {
  it("asks for an <acct-login team>'s details once, as soon as it evaluates", async () => {
    await withPage(async ({ page }) => {
      const { requests } = await openLoginPage(
        page,
        '/login-element.html',
        'acct-login on its own',
        ESM_ENTRY,
        ' Acme ',
      );
      await page.getByLabel('Password').waitFor();
      const team = requests.filter((path) => path === '/api/team/public/acme');
      assert.equal(team.length, 1, `one team lookup, shared by the prefetch and the element: ${requests}`);
      // The entry's first module asks for the team; the language chunk is asked for right after it.
      // Without the prefetch, the element would ask only once it renders, after the chunk.
      const chunk = requests.findIndex((path) => /^\/dist\/chunks\/en-/.test(path));
      assert.ok(chunk >= 0, `the English chunk was fetched: ${requests}`);
      assert.ok(requests.indexOf('/api/team/public/acme') < chunk, `team lookup first: ${requests}`);
    });
  });

  it('makes no request and reads no cookie while it evaluates, and starts react-dom after its first requests', async () => {
    // src/after-evaluation.ts: such a call made from the entry's top level makes V8 re-parse all of it.
    await withPage(async ({ page }) => {
      await page.addInitScript({ content: CALL_RECORDER });
      const cdp = await page.context().newCDPSession(page);
      const initiators = new Map<string, Place[]>();
      cdp.on('Network.requestWillBeSent', ({ request, initiator }) => {
        const path = new URL(request.url).pathname;
        const frames = (initiator.stack?.callFrames ?? []).map((frame) => ({
          url: frame.url,
          line: frame.lineNumber,
          column: frame.columnNumber,
        }));
        if (/^\/api\/|^\/dist\/chunks\//.test(path)) initiators.set(path, frames);
      });
      await cdp.send('Network.enable');
      await openLoginPage(page, '/evaluation.html', 'acct-login on its own', ESM_ENTRY, 'acme');
      await page.getByLabel('Password').waitFor();

      const atTopLevel = topLevelOfEntry();
      const team = initiators.get('/api/team/public/acme');
      const chunk = [...initiators].find(([path]) => /^\/dist\/chunks\/en-/.test(path))?.[1];
      assert.ok(
        team?.length && chunk?.length,
        `both first requests have a script stack: ${[...initiators.keys()]}`,
      );
      for (const [path, frames] of initiators) {
        assert.deepEqual(frames.filter(atTopLevel), [], `${path} asked for from the entry's top level`);
      }
      const reads = await page.evaluate(
        () => (window as unknown as { __cookieReads: Place[][] }).__cookieReads,
      );
      assert.ok(reads.length > 0, 'the stored language is read');
      for (const frames of reads)
        assert.deepEqual(frames.filter(atTopLevel), [], "a cookie read from the entry's top level");

      // The requests go out first; react-dom's start-up then runs while they are answered.
      const order = await page.evaluate(() => (window as unknown as { __order: string[] }).__order);
      const started = order.indexOf('react-dom starts');
      assert.ok(
        started >= 0,
        `react-dom's start-up probe was seen (if React changed it, update CALL_RECORDER): ${order}`,
      );
      const first = order.findIndex((entry) => entry.endsWith('/api/team/public/acme'));
      assert.ok(
        first >= 0 && first < started,
        `the team lookup is asked for before react-dom starts: ${order}`,
      );
    });
  });
});

/** A place in a script: 0-based line and column, as the DevTools protocol gives them. */
interface Place {
  url: string;
  line: number;
  column: number;
}

/**
 * Records, from before the bundle runs, where the page reads cookies (`document.cookie`, the Cookie
 * Store) — every frame of each read's stack — and the order of the first request and react-dom's
 * start-up (its passive-listener probe, `addEventListener('test', …)` on the window).
 */
const CALL_RECORDER = `
  window.__cookieReads = [];
  window.__order = [];
  const frames = () => {
    const prepare = Error.prepareStackTrace;
    const limit = Error.stackTraceLimit;
    Error.prepareStackTrace = (_error, sites) => sites.map((site) => ({
      url: site.getFileName() ?? '', line: (site.getLineNumber() ?? 1) - 1, column: (site.getColumnNumber() ?? 1) - 1,
    }));
    Error.stackTraceLimit = 100;
    const stack = new Error().stack;
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
    return stack;
  };
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  Object.defineProperty(Document.prototype, 'cookie', {
    ...cookie,
    get() { window.__cookieReads.push(frames()); return cookie.get.call(this); },
  });
  if (globalThis.CookieStore) {
    const get = CookieStore.prototype.get;
    CookieStore.prototype.get = function (...args) { window.__cookieReads.push(frames()); return get.apply(this, args); };
  }
  const fetch = window.fetch;
  window.fetch = function (...args) { window.__order.push('fetch ' + String(args[0])); return fetch.apply(this, args); };
  const listen = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, ...rest) {
    if (this === window && type === 'test') window.__order.push('react-dom starts');
    return listen.call(this, type, ...rest);
  };
`;

/**
 * Whether a place in the ES module entry is its top level — in no function — read with the TypeScript
 * parser. A call made there has the whole module's code on its stack.
 */
function topLevelOfEntry(): (place: Place) => boolean {
  const source = ts.createSourceFile(ENTRY, readFileSync(ENTRY, 'utf8'), ts.ScriptTarget.Latest, true);
  const functions: Array<[number, number]> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) {
      functions.push([node.getStart(source), node.getEnd()]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return (place) => {
    if (!place.url.endsWith('/dist/acct-elements.js')) return false;
    const offset = source.getPositionOfLineAndCharacter(place.line, place.column);
    return !functions.some(([start, end]) => start <= offset && offset < end);
  };
}

/**
 * Records, from before the bundle runs, what every shadow root of the page ever shows: whether a
 * spinner appeared, whether it appeared before the first password field, and whether anything at all
 * did (`window.__frames`). It watches the DOM only, whatever mounts the tree.
 */
const FRAME_RECORDER = `
  window.__frames = { spinner: false, spinnerBeforeForm: false, contentBeforeForm: false, form: false };
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    new MutationObserver(() => {
      const frames = window.__frames;
      if (root.querySelector('.spinner')) {
        frames.spinner = true;
        if (!frames.form) frames.spinnerBeforeForm = true;
        frames.spinnerAt ??= performance.now();
      }
      if (root.querySelector('input[type="password"]')) frames.form = true;
      else if (!frames.form && root.childNodes.length > 0) {
        frames.contentBeforeForm = true;
        frames.contentAt ??= performance.now();
      }
    }).observe(root, { childList: true, subtree: true });
    return root;
  };
`;
type Frames = { spinner: boolean; spinnerBeforeForm: boolean; contentBeforeForm: boolean; form: boolean };

/** What FRAME_RECORDER saw, once the sign-in form is on screen. */
async function framesUntilForm(page: Page): Promise<Frames> {
  return (await timedFramesUntilForm(page)).frames;
}

/** The same, with when (ms after the navigation began) a spinner and other content first showed. */
async function timedFramesUntilForm(
  page: Page,
): Promise<{ frames: Frames; spinnerAt?: number; contentAt?: number }> {
  await page.getByLabel('Password').waitFor();
  const { spinnerAt, contentAt, ...frames } = await page.evaluate(
    () => (window as unknown as { __frames: Frames & { spinnerAt?: number; contentAt?: number } }).__frames,
  );
  return { frames, spinnerAt, contentAt };
}

/**
 * The frames before the form that break the first screen's promise: those shown before its wait for
 * its data could have ended (FIRST_SCREEN_WAIT_MS in src/elements/define.tsx, one second). On a busy
 * machine the data can take longer, and the screen then shows as designed: that is not a defect.
 */
async function earlyFramesUntilForm(page: Page): Promise<Frames> {
  const { frames, spinnerAt, contentAt } = await timedFramesUntilForm(page);
  const early = (at: number | undefined) => at !== undefined && at < 1000;
  return {
    ...frames,
    spinner: frames.spinner && early(spinnerAt),
    spinnerBeforeForm: frames.spinnerBeforeForm && early(spinnerAt),
    contentBeforeForm: frames.contentBeforeForm && early(contentAt),
  };
}

describe('the first screen', () => {
  it('of an <acct-login team> is its form: nothing shows until the language and the team are in, not even a spinner', async () => {
    await withPage(async ({ page }) => {
      await page.addInitScript({ content: FRAME_RECORDER });
      await openLoginPage(page, '/first-screen.html', 'acct-login on its own', ESM_ENTRY, 'acme');
      assert.deepEqual(await earlyFramesUntilForm(page), {
        spinner: false,
        spinnerBeforeForm: false,
        contentBeforeForm: false,
        form: true,
      });
    });
  });

  it("of the portal's sign-in route is its form: no loading frame while the portal's chunk comes", async () => {
    await withPage(async ({ page }) => {
      await page.addInitScript({ content: FRAME_RECORDER });
      await page.goto(`${e2e.server.url}/login/acme`);
      const frames = await earlyFramesUntilForm(page);
      // The header is in the same shadow root and shows before the form does; a spinner must not.
      assert.deepEqual(
        { ...frames, contentBeforeForm: undefined },
        {
          spinner: false,
          spinnerBeforeForm: false,
          contentBeforeForm: undefined,
          form: true,
        },
      );
    });
  });

  it('shows the spinner when the team lookup is slow, after a second, then the form', async () => {
    await withPage(async ({ page }) => {
      await page.addInitScript({ content: FRAME_RECORDER });
      let answer!: () => void;
      const held = new Promise<void>((resolve) => (answer = resolve));
      await page.route(`${e2e.server.url}/api/team/public/acme`, async (route) => {
        await held;
        await route.continue();
      });
      const started = Date.now();
      await openLoginPage(page, '/first-screen-slow.html', 'acct-login on its own', ESM_ENTRY, 'acme');
      await page.getByRole('status').filter({ hasText: 'Loading' }).first().waitFor();
      assert.ok(Date.now() - started >= 900, 'no spinner for the first second');
      answer();
      assert.deepEqual(await framesUntilForm(page), {
        spinner: true,
        spinnerBeforeForm: true,
        contentBeforeForm: true,
        form: true,
      });
    });
  });
});

describe('lazily loaded chunks', () => {
  const chunk = (pattern: RegExp) => {
    const files = chunksWithSource(pattern).map((file) => `/dist/chunks/${basename(file)}`);
    assert.ok(files.length > 0, `no chunk in dist/chunks is built from ${pattern}`);
    return files;
  };

  it('fetches the developer tools and QR chunks only on the screens that show them', async () => {
    const devTools = chunk(LAZY_PARTS['developer tools']);
    const qr = chunk(LAZY_PARTS['QR code']);
    const tokenForm = chunk(/^src\/features\/token\/token-form\.tsx$/);
    const lazy = [...devTools, ...qr];
    await withPage(async ({ page }, context) => {
      const requests = recordRequests(page);
      const visit = async (path: string) => {
        requests.length = 0;
        await page.goto(`${e2e.server.url}${path}`);
      };

      await visit('/login/acme');
      await page.getByRole('heading', { name: 'Sign in to Acme' }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.deepEqual(
        requests.filter((path) => lazy.includes(path)),
        [],
        'on /login/acme',
      );
      assert.ok(
        requests.some((path) => /^\/dist\/chunks\/en-/.test(path)),
        'the language chunk is fetched',
      );

      // Leave the sign-in page first: a request it still makes (its passkey offer comes after the
      // session check) would carry the new session's cookie with the old anti-forgery token: a 403.
      await page.goto('about:blank');
      await signInContext(context, (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
      await visit('/manage');
      await page.getByRole('heading', { name: 'Personal info' }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.deepEqual(
        requests.filter((path) => lazy.includes(path)),
        [],
        'on /manage',
      );

      await visit('/manage/dev');
      await page.locator('acct-portal form.token-form').waitFor();
      for (const file of tokenForm) assert.ok(requests.includes(file), `${file} on /manage/dev`);
      assert.deepEqual(
        requests.filter((path) => qr.includes(path)),
        [],
        'no QR chunk on /manage/dev',
      );

      await visit('/manage/qr');
      await page.getByRole('button', { name: 'Generate QR code' }).waitFor();
      for (const file of qr) assert.ok(requests.includes(file), `${file} on /manage/qr`);
    });
  });

  it('fetches the strength meter only where a new password is chosen; the server estimates once typing pauses', async () => {
    const meter = chunk(/^src\/ui\/strength\/strength-meter\.tsx$/);
    const reset = chunk(LAZY_PARTS['password reset screen']);
    const strength = [...chunk(LAZY_PARTS['password strength meter']), ...reset];
    const estimates = (requests: string[]) => requests.filter((path) => path === '/api/password/strength');
    await withPage(async ({ page }) => {
      const requests = recordRequests(page);
      await page.goto(`${e2e.server.url}/login/acme`);
      await page.getByRole('heading', { name: 'Sign in to Acme' }).waitFor();
      await page.getByLabel('Password').fill('a password typed here');
      await page.waitForLoadState('networkidle');
      assert.deepEqual(
        requests.filter((path) => strength.includes(path)),
        [],
        'the sign-in page loads no part of the meter',
      );
      assert.deepEqual(estimates(requests), [], 'the sign-in page asks for no estimate');

      requests.length = 0;
      await page.goto(`${e2e.server.url}/login/acme/resetPassword?id=x&token=y`);
      await page.getByText('Password strength').waitFor();
      await page.waitForLoadState('networkidle');
      for (const file of [...reset, ...meter])
        assert.ok(requests.includes(file), `${file} on the reset page`);
      assert.deepEqual(estimates(requests), [], 'no estimate before anything is typed');
      const loaded = requests.length;
      // The page's timers on a clock the test moves: a busy machine can hold a keystroke past the
      // meter's pause, which would then be a pause. Installed, the clock still runs with real time;
      // paused, it moves only when the test moves it. Typing, however slowly (here slower than the
      // pause), asks for nothing; the pause after it, one estimate.
      await page.clock.install();
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      await page.getByLabel('New password', { exact: true }).pressSequentially('password', { delay: 200 });
      await page.clock.runFor(100);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(estimates(requests), [], 'no estimate while typing');
      await page.clock.runFor(100);
      await page.getByText('Too easy to guess: it is one of the ten most used passwords').waitFor();
      assert.deepEqual(estimates(requests), ['/api/password/strength']);
      assert.deepEqual(
        requests.slice(loaded).filter((path) => path !== '/api/password/strength'),
        [],
        'nothing else is fetched for it: the dictionaries stay on the server',
      );
      // In a contrast theme (forced colours: system colours only) the filled segment is drawn in the
      // text's colour, the empty ones are not.
      await page.emulateMedia({ forcedColors: 'active' });
      const filled = await page
        .locator('acct-portal .strength-bar span')
        .evaluateAll((spans) =>
          spans.map((span) => getComputedStyle(span).backgroundColor === getComputedStyle(span).color),
        );
      assert.deepEqual(filled, [true, false, false, false]);
    });
  });
});
