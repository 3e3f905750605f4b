/**
 * Every screen (test/support/screens.ts), in the three brands, light and dark: written to
 * test-results/screens/ for people to look at, checked with axe-core (WCAG 2.2 AA, zero violations),
 * and watched for console errors and CSP violations.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeViolations } from '../support/axe';
import { launchBrowser, screenshot, sweepTab, useServer } from '../support/browser';
import { expectedErrors, SHOTS } from '../support/screens';
import { startTestServer, type TestServer } from '../support/test-server';
import { readLocale, translator } from '../support/texts';

const t = translator(readLocale('en'));

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(() => browser.close());

describe('the sweep tab', () => {
  const sweep = useServer();

  it('starts each screen with no cookies and no stored data on any origin it visited', async () => {
    const context = await browser.newContext();
    try {
      const tab = await sweepTab(context);
      const leave = async (url: string) => {
        const { page } = await tab.next();
        await page.goto(url);
        await page.evaluate(() => {
          localStorage.setItem('acct-left-behind', 'yes');
          document.cookie = 'left-behind=yes; path=/';
        });
      };
      const { url: portal, partnerUrl } = sweep.server;
      await leave(`${portal}/login/team`);
      await leave(partnerUrl);
      const { page } = await tab.next();
      assert.deepEqual(await context.cookies(), []);
      for (const url of [`${portal}/login/team`, partnerUrl]) {
        await page.goto(url);
        assert.equal(await page.evaluate(() => localStorage.length), 0, url);
      }
    } finally {
      await context.close();
    }
  });
});

for (const brand of ['intoware', 'onsight', 'schenck'] as const) {
  describe(`screens, brand ${brand}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ BRAND: brand, LOGIN_ADDRESS_LIMIT: '10000' });
    });
    after(() => server.close());

    for (const theme of ['light', 'dark'] as const) {
      it(`captures every screen (${theme}) with no accessibility violations`, async () => {
        const failures: string[] = [];
        const context = await browser.newContext({ viewport: { width: 1024, height: 720 } });
        try {
          if (theme === 'dark') await context.addInitScript(() => localStorage.setItem('darkMode', 'true'));
          const tab = await sweepTab(context);
          for (const shot of SHOTS) {
            const watch = await tab.next(expectedErrors(shot));
            await shot.show(watch.page, server, t);
            await screenshot(watch.page, 'screens', `${shot.name}-${brand}-${theme}`);
            for (const violation of await axeViolations(watch.page))
              failures.push(`${shot.name}: ${violation}`);
            if (shot.stillShown && !(await shot.stillShown(watch.page, t)))
              failures.push(`${shot.name}: the state was gone before axe finished`);
            assert.deepEqual(await watch.problems(), [], `${shot.name} ${brand} ${theme}`);
          }
        } finally {
          await context.close();
        }
        assert.deepEqual(failures, []);
      });
    }
  });
}
