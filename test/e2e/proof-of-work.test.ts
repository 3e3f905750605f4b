/**
 * The proof-of-work challenge solved by a real browser: the element's worker, loaded from the bundle's
 * own chunks under the server's strict CSP, on forgot password and on sign-in after failures.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Page, Request } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { failedResource, screenshot, useE2E } from '../support/browser';
import { TestSmtp } from '../support/smtp';

let smtp: TestSmtp | undefined;
const e2e = useE2E(async () => {
  smtp = await TestSmtp.start();
  return { SMTP_URL: smtp.url, LOGIN_ADDRESS_LIMIT: '10000' };
});
after(() => smtp?.close());
const { withPage } = e2e;

/** The worker scripts the page loaded, and the bodies and answers of the calls to `path`. */
function watch(page: Page, path: string) {
  const workers: string[] = [];
  const calls: Array<{ body: Record<string, unknown>; status: Promise<number> }> = [];
  page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname));
  page.on('request', (request: Request) => {
    if (new URL(request.url()).pathname !== path || request.method() !== 'POST') return;
    calls.push({
      body: request.postDataJSON() as Record<string, unknown>,
      status: request.response().then((response) => response?.status() ?? 0),
    });
  });
  return { workers, calls };
}

/**
 * Hold the page's worker answers back: each waits in `window.heldSolutions` until `sendAsSolved` lets
 * it through. Test-only: the page's own `Worker` is wrapped before any of its scripts run.
 */
async function holdSolutions(page: Page) {
  await page.addInitScript(() => {
    const held: Array<() => void> = [];
    Object.assign(window, { heldSolutions: held });
    const Native = window.Worker;
    window.Worker = class extends Native {
      override set onmessage(handler: ((event: MessageEvent) => void) | null) {
        super.onmessage = handler && ((event) => held.push(() => handler.call(this, event)));
      }
      override get onmessage() {
        return super.onmessage;
      }
    };
  });
}

/**
 * Let the held answer through and press `button` in the same task: after the answer's promise callbacks
 * (microtasks), before React renders again (a task of its own). A click on a busy machine can fall there.
 */
async function sendAsSolved(page: Page, button: string) {
  await page.waitForFunction(
    () => (window as unknown as { heldSolutions: unknown[] }).heldSolutions.length > 0,
  );
  await page.evaluate(async (name) => {
    const held = (window as unknown as { heldSolutions: Array<() => void> }).heldSolutions;
    // The button, looking into shadow roots (a walk, not a named function: the test's compiler would
    // wrap one in a helper the page does not have).
    const roots: Array<Document | ShadowRoot> = [document];
    let target: HTMLButtonElement | undefined;
    while (!target && roots.length) {
      for (const element of roots.pop()!.querySelectorAll('*')) {
        if (element.shadowRoot) roots.push(element.shadowRoot);
        if (element instanceof HTMLButtonElement && element.textContent?.trim() === name) target = element;
      }
    }
    if (!target) throw new Error(`no button "${name}"`);
    held.shift()!();
    for (let i = 0; i < 100; i++) await null;
    target.click();
  }, button);
}

describe('proof of work in the browser', () => {
  it('forgot password: solved in a worker while the address is typed, sent with the request', async () => {
    await withPage(async ({ page }) => {
      const seen = watch(page, '/api/user/password/request');
      await page.goto(`${e2e.server.url}/login/acme/forgotPassword`);
      await page.getByLabel('Email').pressSequentially('ada@acme.test', { delay: 20 });
      await page.getByRole('button', { name: 'Get reset link' }).click();
      await page
        .getByText('If an account exists for ada@acme.test, a reset link will be sent to it shortly.')
        .waitFor();
      await smtp!.next('ada@acme.test', /Reset your/);
      assert.equal(seen.calls.length, 1);
      assert.ok(seen.calls[0]!.body.proof, 'the request carries a solution');
      assert.equal(await seen.calls[0]!.status, 200);
      assert.ok(
        seen.workers.some((path) => /^\/dist\/chunks\/worker-[\w-]{8}\.js$/.test(path)),
        `a worker of our own origin: ${seen.workers.join(', ')}`,
      );
      await screenshot(page, 'e2e/proof', 'forgot-sent');
    });
  });

  it('sign-in after two failures: asked for a challenge, solved and sent again without a click', async () => {
    await withPage(
      async ({ page }) => {
        const seen = watch(page, '/account/login');
        await page.goto(`${e2e.server.url}/login/acme`);
        await page.getByLabel('Email').fill('ada@acme.test');
        for (let i = 0; i < 2; i++) {
          await page.getByLabel('Password').fill('not the password');
          await page.getByRole('button', { name: 'Continue' }).click();
          await page.getByRole('alert').filter({ hasText: 'The email or password is incorrect.' }).waitFor();
        }
        // No worker yet: nobody was asked for anything.
        assert.deepEqual(seen.workers, []);
        await page.getByLabel('Password').fill(DEMO_PASSWORD);
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.waitForURL(`${e2e.server.url}/manage`);
        const statuses = await Promise.all(seen.calls.map((call) => call.status));
        assert.deepEqual(statuses, [401, 401, 403, 200]);
        assert.equal(seen.calls[2]!.body.proof, undefined);
        assert.ok(seen.calls[3]!.body.proof, 'sent again with a solution');
        assert.equal(seen.workers.length, 1);
      },
      [failedResource(401), failedResource(403)],
    );
  });

  it('forgot password: a click in the moment the solution arrives sends it', async () => {
    await withPage(async ({ page }) => {
      await holdSolutions(page);
      const seen = watch(page, '/api/user/password/request');
      await page.goto(`${e2e.server.url}/login/acme/forgotPassword`);
      await page.getByLabel('Email').fill('ada@acme.test');
      await sendAsSolved(page, 'Get reset link');
      await page
        .getByText('If an account exists for ada@acme.test, a reset link will be sent to it shortly.')
        .waitFor({ timeout: 10_000 });
      assert.equal(seen.calls.length, 1);
      assert.ok(seen.calls[0]!.body.proof, 'the request carries the solution');
      await smtp!.next('ada@acme.test', /Reset your/);
    });
  });

  it('sign-up: a click in the moment the solution arrives sends it', async () => {
    await withPage(async ({ page }) => {
      await holdSolutions(page);
      const seen = watch(page, '/account/signup');
      const stamp = Date.now().toString(36);
      await page.goto(`${e2e.server.url}/signup`);
      await page.getByLabel('Team name').fill('Held Answer');
      await page.getByLabel('Team address').fill(`held-${stamp}`);
      await page.getByText(/^This address is free: /).waitFor();
      await page.getByLabel('Your name').fill('Nia Newcomer');
      await page.getByLabel('Work email').fill(`held-${stamp}@startup.test`);
      await sendAsSolved(page, 'Send code');
      await page.getByRole('heading', { name: 'Check your email' }).waitFor({ timeout: 10_000 });
      assert.equal(seen.calls.length, 1);
      assert.ok(seen.calls[0]!.body.proof, 'the request carries the solution');
    });
  });

  it('a visitor who is never challenged loads none of it', async () => {
    await withPage(async ({ page }) => {
      const paths: string[] = [];
      page.on('request', (request) => paths.push(new URL(request.url()).pathname));
      await page.goto(`${e2e.server.url}/login/acme`);
      await page.getByLabel('Email').fill('ada@acme.test');
      await page.getByLabel('Password').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${e2e.server.url}/manage`);
      const proofParts = paths.filter((path) => /\/chunks\/(proof|solve|worker)-/.test(path));
      assert.deepEqual(proofParts, []);
      assert.ok(!paths.includes('/account/challenge'));
    });
  });
});
