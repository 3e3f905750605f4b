import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_DEVICE_CLIENT_ID, DEMO_OIDC_CLIENT_ID } from '../../demo/server/config';
import { serverText, type TextKey } from '../../demo/server/mail/texts';
import { axeViolations } from './axe';
import { screenshot, signInContext, type BrowserHandle, type ServerHandle } from './browser';
import { sessionFor } from './test-server';
import { timed } from './timing';

/** A device's request (RFC 8628) to the server: the user code to type. */
async function deviceCode(server: ServerHandle['server']): Promise<string> {
  const answer = await fetch(`${server.url}/oidc/device/auth`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: DEMO_DEVICE_CLIENT_ID, scope: 'openid' }),
  });
  return ((await answer.json()) as { user_code: string }).user_code;
}

interface ProviderPage {
  name: string;
  show(page: Page, server: ServerHandle['server']): Promise<void>;
}

/** A page's English text as the server writes it now (the pseudo-locale run replaces the texts). */
const say = (key: TextKey) => serverText('en', key);

/**
 * The OpenID Provider's plain pages (lib/plain-page.ts), signed in as ada: the refusal of a request it
 * cannot take, the question before an app's sign-out, the signed-out page, and the device flow's code
 * field (empty, refused), confirmation and success.
 */
const PAGES: ProviderPage[] = [
  {
    name: 'provider-refusal',
    show: async (page, server) => {
      await page.goto(`${server.url}/oidc/auth?client_id=no-such-app&response_type=code&scope=openid`);
    },
  },
  {
    name: 'provider-sign-out-question',
    show: async (page, server) => {
      await page.goto(`${server.url}/oidc/session/end?client_id=${DEMO_OIDC_CLIENT_ID}`);
      await page.getByRole('button', { name: say('signOut.stay') }).waitFor();
    },
  },
  {
    name: 'provider-device-code',
    show: async (page, server) => {
      await page.goto(`${server.url}/oidc/device`);
    },
  },
  {
    name: 'provider-device-code-refused',
    show: async (page, server) => {
      await page.goto(`${server.url}/oidc/device`);
      await page.getByLabel(say('device.code')).fill('BCDF-GHJK');
      await page.getByRole('button', { name: say('device.continue') }).click();
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'provider-device-confirm',
    show: async (page, server) => {
      await page.goto(`${server.url}/oidc/device`);
      await page.getByLabel(say('device.code')).fill(await deviceCode(server));
      await page.getByRole('button', { name: say('device.continue') }).click();
      await page.getByRole('button', { name: say('device.cancel') }).waitFor();
    },
  },
  {
    name: 'provider-device-done',
    show: async (page) => {
      // From the confirmation above: signed in, the device is signed in at once.
      await page.getByRole('button', { name: say('device.confirm'), exact: true }).click();
      await page.getByRole('heading', { name: say('device.doneTitle') }).waitFor();
    },
  },
  {
    name: 'provider-signed-out',
    show: async (page, server) => {
      await page.goto(`${server.url}/oidc/session/end?client_id=${DEMO_OIDC_CLIENT_ID}`);
      await page.getByRole('button', { name: say('signOut.confirm'), exact: true }).click();
      await page.getByRole('heading', { name: say('signOut.done') }).waitFor();
    },
  },
];

/**
 * Each provider page in turn, signed in as ada, handed to `look` where it stands (at 1024 px, light).
 */
export async function visitProviderPages(
  e2e: BrowserHandle & ServerHandle,
  look: (name: string, page: Page) => Promise<void>,
) {
  const context: BrowserContext = await e2e.browser.newContext({ viewport: { width: 1024, height: 720 } });
  try {
    await signInContext(context, (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
    const page = await context.newPage();
    for (const shot of PAGES) {
      await timed('provider show', shot.name, () => shot.show(page, e2e.server));
      await timed('provider look', shot.name, () => look(shot.name, page));
      await page.setViewportSize({ width: 1024, height: 720 });
      await page.emulateMedia({ colorScheme: 'light' });
    }
  } finally {
    await context.close();
  }
}

/**
 * Each provider page at 1024 and 320 px wide, light and dark (the pages follow the browser's
 * preference), written to test-results/screens/ and checked with axe-core (in dark, the colour rules);
 * at 320 px nothing may scroll sideways.
 */
export async function sweepProviderPages(e2e: BrowserHandle & ServerHandle, brand: string, dark: boolean) {
  const failures: string[] = [];
  await visitProviderPages(e2e, async (name, page) => {
    for (const theme of dark ? ['light', 'dark'] : ['light']) {
      await page.emulateMedia({ colorScheme: theme as 'light' | 'dark' });
      for (const width of [1024, 320]) {
        await page.setViewportSize({ width, height: 720 });
        await screenshot(page, 'screens', `${name}-${brand}-${theme}-${width}`);
        // Dark changes colours only: the rest was checked in light at the same width, on this document.
        for (const violation of await axeViolations(page, theme === 'light' ? 'all' : 'colours'))
          failures.push(`${name} (${theme}, ${width}px): ${violation}`);
        const sideways = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        if (sideways > 0) failures.push(`${name} (${theme}, ${width}px): scrolls ${sideways}px sideways`);
      }
    }
  });
  assert.deepEqual(failures, []);
}
