/**
 * Every screen in every brand, light and dark, and in Arabic, right to left, in the first brand
 * (test/support/screens-sweep.ts); and the sweep's own promise: each screen starts as a new visitor.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sweepTab } from '../support/browser';
import { sweepScreens } from '../support/screens-sweep';

// The sweep's browser and server (one of each per file).
const chrome = sweepScreens(['intoware', 'onsight', 'schenck'], { alsoIn: 'ar' });

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
