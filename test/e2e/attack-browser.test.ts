import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { signInContext, useE2E } from '../support/browser';
import { sessionFor, tokenFor } from '../support/test-server';

/**
 * Browser side of the attack suite (design §3): the bearer and anti-forgery headers never
 * leave for another origin, and hostile names render as text. Every page also reports CSP violations
 * from every document it loads (withPage checks the last one; the reporter below covers the ones a
 * journey navigates away from).
 */

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });
const { withPage } = e2e;

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
}

declare global {
  interface Window {
    __attackReport?: (text: string) => void;
  }
}

/** Record every request of the context with its final headers, and every CSP violation of every page. */
async function record(context: BrowserContext): Promise<{ sent: Sent[]; violations: string[] }> {
  const sent: Sent[] = [];
  const violations: string[] = [];
  await context.exposeFunction('__attackReport', (text: string) => violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__attackReport?.(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  context.on('request', (request) => {
    void request.allHeaders().then(
      (headers) => sent.push({ url: request.url(), method: request.method(), headers }),
      () => undefined,
    );
  });
  return { sent, violations };
}

/** No request to an origin other than the issuer carries the bearer or the anti-forgery header. */
function assertHeadersStayHome(sent: Sent[], issuer: string) {
  assert.ok(sent.length > 0, 'nothing recorded');
  for (const request of sent) {
    if (new URL(request.url).origin === issuer) continue;
    const label = `${request.method} ${request.url}`;
    assert.equal(request.headers.authorization, undefined, `bearer sent to ${label}`);
    assert.equal(request.headers['x-xsrf-token'], undefined, `anti-forgery header sent to ${label}`);
  }
}

const toIssuer = (sent: Sent[], header: string) =>
  sent.filter((r) => new URL(r.url).origin === e2e.server.url && r.headers[header] !== undefined);

async function signInHere(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('credentials headers never leave for another origin', () => {
  it('on the partner page: sign in through the element, across origins', async () => {
    await withPage(async ({ page }, context) => {
      const { sent, violations } = await record(context);
      await page.goto(`${e2e.server.partnerUrl}/partner.html`);
      await signInHere(page, 'ada@acme.test');
      await page.getByText('You are signed in as ada@acme.test.').waitFor();
      // The page's own scripts and assets come from the partner origin: none of them get credentials.
      await page.reload();
      await page.getByText('You are signed in as ada@acme.test.').waitFor();
      assert.ok(
        sent.some((r) => new URL(r.url).origin === e2e.server.partnerUrl),
        'partner requests recorded',
      );
      assertHeadersStayHome(sent, e2e.server.url);
      // The recording sees the bearer where it belongs, so its absence elsewhere means something.
      assert.ok(toIssuer(sent, 'authorization').length > 0, 'no bearer to the issuer recorded');
      assert.deepEqual(violations, []);
    });
  });

  it('on the suite app: the header element signed in, then signing out', async () => {
    await withPage(async ({ page }, context) => {
      const { sent, violations } = await record(context);
      await signInContext(context, (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
      await page.goto(`${e2e.server.partnerUrl}/suite-app.html`);
      const header = page.locator('acct-header');
      await header.getByRole('button', { name: 'Account menu for Ada Lovelace' }).click();
      await header.getByRole('menuitem', { name: 'Sign out' }).click();
      await header
        .getByRole('button', { name: 'Account menu for Ada Lovelace' })
        .waitFor({ state: 'detached' });
      assertHeadersStayHome(sent, e2e.server.url);
      assert.ok(toIssuer(sent, 'authorization').length > 0, 'no bearer to the issuer recorded');
      assert.deepEqual(violations, []);
    });
  });

  it('in the portal: sign in, manage, QR code, sign out — and the XSRF header goes only to the issuer', async () => {
    await withPage(async ({ page }, context) => {
      const { sent, violations } = await record(context);
      await page.goto(`${e2e.server.url}/login/globex`);
      await signInHere(page, 'carol@globex.test');
      await page.waitForURL(`${e2e.server.url}/manage`);
      await page.getByRole('heading', { name: 'Personal info' }).waitFor();
      await page.goto(`${e2e.server.url}/manage/qr`);
      await page.waitForLoadState('networkidle');
      await page.locator('acct-portal .avatar-button').click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(`${e2e.server.url}/login/team`);
      assertHeadersStayHome(sent, e2e.server.url);
      assert.ok(toIssuer(sent, 'authorization').length > 0, 'no bearer recorded');
      assert.ok(toIssuer(sent, 'x-xsrf-token').length > 0, 'no anti-forgery header recorded');
      // The anti-forgery header rides on unsafe requests only.
      for (const request of toIssuer(sent, 'x-xsrf-token'))
        assert.notEqual(request.method, 'GET', `XSRF header on GET ${request.url}`);
      assert.deepEqual(violations, []);
    });
  });
});

/** Names that would run script or reorder text if rendered as markup. */
const HOSTILE_NAMES = [
  '<img src=x onerror=alert(1)>',
  '\u202eCarol<img src=y onerror=alert(2)>',
  '"><svg onload=alert(3)>\u2066x\u2069',
];

/** Every element in the document and in every (open) shadow root that could be injected markup. */
function injectedElements(page: Page): Promise<string[]> {
  // A loop, not a nested named function: tsx would wrap one in a helper the page does not have.
  return page.evaluate(() => {
    const found: string[] = [];
    const roots: Array<Document | ShadowRoot> = [document];
    for (let root = roots.pop(); root; root = roots.pop()) {
      for (const element of root.querySelectorAll('*')) {
        const tag = element.tagName.toLowerCase();
        if (
          element.hasAttribute('onerror') ||
          element.hasAttribute('onload') ||
          (tag === 'img' && /\/(x|y)$/.test((element as HTMLImageElement).src))
        )
          found.push(element.outerHTML);
        if (element.shadowRoot) roots.push(element.shadowRoot);
      }
    }
    return found;
  });
}

describe('hostile names render as text', () => {
  it('shows each name literally in the portal and on the suite app, with no markup and no dialog', async () => {
    const carol = await tokenFor(e2e.server.server.app, 'carol@globex.test');
    try {
      for (const name of HOSTILE_NAMES) {
        const set = await e2e.server.server.app.inject({
          method: 'POST',
          url: '/api/user',
          headers: { authorization: `Bearer ${carol.accessToken}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ name }),
        });
        assert.equal(set.statusCode, 200, set.body);
        assert.equal(set.json().name, name);
        await withPage(async ({ page }, context) => {
          const { violations } = await record(context);
          const dialogs: string[] = [];
          page.on('dialog', (dialog) => {
            dialogs.push(dialog.message());
            void dialog.dismiss();
          });
          const imageRequests: string[] = [];
          context.on('request', (request) => {
            if (/\/(x|y)$/.test(new URL(request.url()).pathname)) imageRequests.push(request.url());
          });
          await signInContext(context, (await sessionFor(e2e.server.server.app, 'carol@globex.test')).token);
          await page.goto(`${e2e.server.url}/manage`);
          const info = page.getByRole('region', { name: 'Personal info' });
          await info.getByText(name, { exact: true }).waitFor();
          await page.locator('acct-portal .header-name').getByText(name, { exact: true }).waitFor();
          assert.deepEqual(await injectedElements(page), [], name);
          await page.goto(`${e2e.server.partnerUrl}/suite-app.html`);
          await page
            .locator('acct-header')
            .getByRole('button', { name: `Account menu for ${name}` })
            .waitFor();
          assert.deepEqual(await injectedElements(page), [], name);
          assert.deepEqual(dialogs, [], name);
          assert.deepEqual(imageRequests, [], name);
          assert.deepEqual(violations, [], name);
        });
      }
    } finally {
      await e2e.server.server.app.inject({
        method: 'POST',
        url: '/api/user',
        headers: { authorization: `Bearer ${carol.accessToken}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'Carol Diaz' }),
      });
    }
  });
});
