import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BrandName } from '../../demo/server/config';
import { axeViolations } from './axe';
import { screenshot, sweepTab, useBrowser, type BrowserHandle } from './browser';
import { expectedErrors, SHOTS } from './screens';
import { startTestServer } from './test-server';
import { readLocale, translator } from './texts';

const t = translator(readLocale('en'));

/**
 * The screens sweep of one brand (test/e2e/screens-<brand>.test.ts): every screen (screens.ts) in light
 * and dark, written to test-results/screens/ for people to look at, checked with axe-core (WCAG 2.2 AA,
 * zero violations), and watched for console errors and CSP violations. A file per brand, so that the
 * end-to-end run sweeps two at a time; each theme on a server of its own, as the screens change data (a
 * password reset, a rename). Returns the file's browser, for more tests.
 */
export function sweepScreens(brand: BrandName): BrowserHandle {
  const chrome = useBrowser();
  describe(`screens, brand ${brand}`, () => {
    for (const theme of ['light', 'dark'] as const) {
      it(`captures every screen (${theme}) with no accessibility violations`, async () => {
        const server = await startTestServer({ BRAND: brand, LOGIN_ADDRESS_LIMIT: '10000' });
        const failures: string[] = [];
        const context = await chrome.browser.newContext({ viewport: { width: 1024, height: 720 } });
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
          await server.close();
        }
        assert.deepEqual(failures, []);
      });
    }
  });
  return chrome;
}
