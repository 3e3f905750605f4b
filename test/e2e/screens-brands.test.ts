/**
 * Every screen in every brand, light and dark, and in Arabic, right to left, in the first brand, then in
 * the pseudo-locale left to right and right to left (test/support/screens-sweep.ts); and the sweep's own
 * promise: each screen starts as a new visitor.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sweepTab } from '../support/browser';
import { pseudo } from '../support/pseudo-locale';
import { sweepScreens } from '../support/screens-sweep';
import { PSEUDO_MARKS, PSEUDO_MARKS_OTHER } from '../support/texts';

// The sweep's browser and server (one of each per file). The pseudo-locale takes the place of two
// languages the sweep does not show otherwise: Italian's chunks, then Hebrew's in marks of their own, so
// that a text still in the first marks after the switch shows as one that did not follow it.
const chrome = sweepScreens(['intoware', 'onsight', 'schenck'], {
  alsoIn: 'ar',
  pseudo: [pseudo('it', 'ltr', PSEUDO_MARKS), pseudo('he', 'rtl', PSEUDO_MARKS_OTHER)],
});

describe('the sweep tab', () => {
  it('starts each screen with no cookies and no stored data on any origin it visited', async () => {
    const context = await chrome.browser.newContext();
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
      const { url: portal, partnerUrl } = chrome.server;
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
