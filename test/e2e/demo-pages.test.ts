import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { elementsRendered, screenshot, TAGS, useBrowser, useServer, watchedPage } from '../support/browser';

const chrome = useBrowser();

for (const brand of ['intoware', 'onsight', 'schenck'] as const) {
  describe(`demo pages, brand ${brand}`, () => {
    const host = useServer({ BRAND: brand });

    const pages = () => [
      {
        name: 'portal',
        url: `${host.server.url}/login/acme`,
        tag: 'acct-portal',
        shows: 'role=heading[name="Sign in to Acme"]',
      },
      {
        name: 'partner',
        url: `${host.server.partnerUrl}/partner.html`,
        tag: 'acct-login',
        shows: 'role=textbox[name="Email"]',
      },
      {
        name: 'suite-app',
        url: `${host.server.partnerUrl}/suite-app.html`,
        tag: 'acct-header',
        shows: 'role=banner',
      },
    ];

    for (const theme of ['light', 'dark'] as const) {
      it(`loads every demo page (${theme}) with all five elements, no console errors, no CSP violations`, async () => {
        for (const { name, url, tag, shows } of pages()) {
          const context = await chrome.browser.newContext();
          if (theme === 'dark') await context.addInitScript(() => localStorage.setItem('darkMode', 'true'));
          try {
            const watch = await watchedPage(context);
            const response = await watch.page.goto(url);
            assert.equal(response?.status(), 200, url);
            await elementsRendered(watch.page);
            const defined = await watch.page.evaluate(
              (tags) => tags.map((t) => !!customElements.get(t)),
              [...TAGS],
            );
            assert.deepEqual(
              defined,
              TAGS.map(() => true),
              `${name}: all five elements defined`,
            );
            const root = watch.page.locator(`${tag} [part="root"]`);
            const expectedTheme = theme === 'dark' && brand !== 'schenck' ? 'dark' : 'light';
            assert.equal(await root.getAttribute('data-theme'), expectedTheme, `${name} theme`);
            await watch.page.locator(tag).locator(shows).waitFor();
            await screenshot(watch.page, 'e2e/foundation', `${name}-${brand}-${theme}`);
            assert.deepEqual(await watch.problems(), [], `${name} (${url}) has no problems`);
          } finally {
            await context.close();
          }
        }
      });
    }
  });
}

describe('the portal page', () => {
  const host = useServer();

  it('opens at every portal address directly', async () => {
    const context = await chrome.browser.newContext();
    try {
      const watch = await watchedPage(context);
      for (const path of [
        '/',
        '/login/team',
        '/login/acme/forgotPassword',
        '/manage',
        '/manage/dev/success',
        '/search?q=x',
        '/home/token',
      ]) {
        const response = await watch.page.goto(`${host.server.url}${path}`);
        assert.equal(response?.status(), 200, path);
        assert.equal(await watch.page.locator('acct-portal').count(), 1, path);
      }
      assert.deepEqual(await watch.problems(), []);
    } finally {
      await context.close();
    }
  });

  it('notices a CSP violation when there is one (the watch can fail)', async () => {
    const context = await chrome.browser.newContext();
    try {
      const watch = await watchedPage(context);
      await watch.page.goto(`${host.server.url}/login/acme`);
      await watch.page.evaluate(() => {
        const style = document.createElement('style');
        style.textContent = 'body { color: red }';
        document.head.append(style);
      });
      await watch.page.waitForFunction(() => (window.__cspViolations ?? []).length > 0);
      const problems = await watch.problems();
      assert.ok(
        problems.some((p) => p.startsWith('CSP violation: style-src')),
        problems.join('\n'),
      );
    } finally {
      await context.close();
    }
  });

  it('loads the bundle on the partner origin through CORS and calls the issuer across origins', async () => {
    const context = await chrome.browser.newContext();
    try {
      const watch = await watchedPage(context);
      const calls: string[] = [];
      watch.page.on('response', (response) => {
        if (response.url().startsWith(host.server.url))
          calls.push(
            `${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`,
          );
      });
      const checked = watch.page.waitForResponse(
        (response) =>
          response.url() === `${host.server.url}/account/check` && response.request().method() === 'POST',
      );
      await watch.page.goto(`${host.server.partnerUrl}/partner.html`);
      await elementsRendered(watch.page);
      await checked;
      assert.ok(calls.includes('GET /dist/acct-elements.js 200'), calls.join('\n'));
      assert.ok(
        calls.some((c) => c.startsWith('POST /account/check 200')),
        calls.join('\n'),
      );
      assert.deepEqual(await watch.problems(), []);
    } finally {
      await context.close();
    }
  });
});
