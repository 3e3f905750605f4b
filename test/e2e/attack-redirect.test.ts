import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { DOT_SEGMENT_CASES, RETURN_URL_CASES, type ReturnUrlCase } from '../support/attack-inputs';
import { failedResource, useE2E } from '../support/browser';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });

interface Outcome {
  value: string;
  finalUrl: string;
  offOrigin: string[];
  dialogs: string[];
  problems: string[];
}

declare global {
  interface Window {
    __reportViolation?: (text: string) => void;
  }
}

/**
 * Sign carol in on `/login/globex?ReturnUrl=<value>` for each value and see where the browser ends up.
 * Every request that leaves the server's origin is recorded and answered locally, every dialog (a `javascript:` URL that ran) is recorded and dismissed, and CSP violations,
 * console errors and uncaught exceptions of every document are collected. A few browser contexts work
 * through the values in parallel; each reuses one page and starts every value signed out.
 */
async function driveSignIns(cases: readonly ReturnUrlCase[], workers = 3): Promise<Outcome[]> {
  const queue = [...cases];
  const outcomes: Outcome[] = [];
  // An accepted same-origin path that is not a portal route answers 404; nothing else may fail.
  const allowed = failedResource(404);
  async function worker() {
    const context = await e2e.browser.newContext();
    try {
      let current: Outcome | null = null;
      await context.exposeFunction('__reportViolation', (text: string) =>
        current?.problems.push(`CSP violation: ${text}`),
      );
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          window.__reportViolation?.(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
        });
      });
      await context.route(
        (url) => url.origin !== e2e.server.url,
        (route) => {
          current?.offOrigin.push(route.request().url());
          // Answered locally, so a successful attack lands visibly on the other origin (and never on DNS).
          return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>elsewhere</title>' });
        },
      );
      const page = await context.newPage();
      page.on('dialog', (dialog) => {
        current?.dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      page.on('console', (message) => {
        if (message.type() === 'error' && !allowed.test(message.text()))
          current?.problems.push(`console error: ${message.text()}`);
      });
      page.on('pageerror', (error) => current?.problems.push(`uncaught: ${error.message}`));
      // Which call failed, beside the console's bare "Failed to load resource".
      page.on('response', (response) => {
        const status = response.status();
        if (status >= 400 && status !== 404)
          current?.problems.push(
            `${status} ${response.request().method()} ${new URL(response.url()).pathname}`,
          );
      });
      for (let next = queue.shift(); next; next = queue.shift()) {
        // The previous value's page is still loading the portal after its sign-in: leave it before the
        // cookies go, or one of its calls may be sent with a cookie cleared under it (a 403).
        current = null;
        await page.goto('about:blank');
        const outcome: Outcome = {
          value: next.value,
          finalUrl: '',
          offOrigin: [],
          dialogs: [],
          problems: [],
        };
        current = outcome;
        await context.clearCookies();
        await page.goto(`${e2e.server.url}/login/globex?${new URLSearchParams({ ReturnUrl: next.value })}`);
        await page.getByLabel('Email').fill('carol@globex.test');
        await page.getByLabel('Password').fill(DEMO_PASSWORD);
        await page.getByRole('button', { name: 'Continue' }).click();
        try {
          await page.waitForURL(
            (url) => !url.pathname.startsWith('/login/') || url.origin !== e2e.server.url,
            {
              timeout: 30_000,
            },
          );
          await page.waitForLoadState('load');
        } catch (error) {
          // A failed hop to another origin is recorded already; the assertions report it.
          if (!outcome.offOrigin.length) throw error;
        }
        outcome.finalUrl = page.url();
        outcomes.push(outcome);
      }
      current = null;
    } finally {
      await context.close();
    }
  }
  await Promise.all(Array.from({ length: Math.min(workers, cases.length) }, worker));
  return outcomes;
}

function assertStayed(outcome: Outcome) {
  const label = JSON.stringify(outcome.value);
  assert.equal(new URL(outcome.finalUrl).origin, e2e.server.url, `${label} ended on ${outcome.finalUrl}`);
  assert.deepEqual(outcome.offOrigin, [], `${label} requested another origin`);
  assert.deepEqual(outcome.dialogs, [], `${label} ran script`);
  assert.deepEqual(outcome.problems, [], `${label} had page problems`);
}

describe('open redirect through the sign-in screen', () => {
  it(`keeps the browser on the origin for ${RETURN_URL_CASES.length} hostile ReturnUrl values`, async () => {
    const outcomes = await driveSignIns(RETURN_URL_CASES);
    assert.equal(outcomes.length, RETURN_URL_CASES.length);
    for (const outcome of outcomes) assertStayed(outcome);
    // Most are refused outright (the portal's home, which goes on to /manage); any accepted one is a path
    // of our own.
    const refused = outcomes.filter((o) => ['/', '/manage'].includes(new URL(o.finalUrl).pathname)).length;
    assert.ok(refused >= RETURN_URL_CASES.length / 2, `${refused} refused`);
  });

  it('keeps the browser on the origin for dot segments', async () => {
    for (const outcome of await driveSignIns(DOT_SEGMENT_CASES)) assertStayed(outcome);
  });

  it('still follows a plain same-origin ReturnUrl', async () => {
    const [outcome] = await driveSignIns([{ value: '/manage/qr', trick: 'control' }]);
    assert.ok(outcome);
    assertStayed(outcome);
    assert.equal(outcome.finalUrl, `${e2e.server.url}/manage/qr`);
  });
});
