import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { DEVICE_CODE_TTL_S } from '../../demo/server/routes/device';
import { screenshot, signInContext, useE2E } from '../support/browser';
import { sessionFor } from '../support/test-server';

const e2e = useE2E();
const { withPage } = e2e;

async function as(page: Page, email: string) {
  await signInContext(page.context(), (await sessionFor(e2e.server.server.app, email)).token);
}

const policies = (page: Page) => page.locator('acct-portal form.token-form');

/** Open the policy form at 320 px (a phone) and then at 1280 px (a desktop), checking each in turn. */
async function onPhoneAndDesktop(page: Page, check: (width: number) => Promise<void>) {
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${e2e.server.url}/manage/dev`);
    await check(width);
  }
}

describe('developer tools', () => {
  it('generates a token with exactly the chosen policies, hides the fragment, and remembers the choice', async () => {
    await withPage(async ({ page }) => {
      await page
        .context()
        .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.url });
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.url}/manage/dev`);
      await policies(page)
        .getByRole('checkbox', { name: /Job_Read/ })
        .check();
      await policies(page)
        .getByRole('checkbox', { name: /Reports_Create/ })
        .check();
      await screenshot(page, 'e2e/developer', 'form');
      await page.getByRole('button', { name: 'Generate access token' }).click();
      await page.waitForURL((url) => url.pathname === '/manage/dev/success');
      const access = await page.getByLabel('Access token', { exact: true }).inputValue();
      const id = await page.getByLabel('ID token', { exact: true }).inputValue();
      assert.ok(access && id);
      await page.waitForFunction(() => location.hash === '');
      assert.equal(new URL(page.url()).hash, '');
      const { payload } = await jwtVerify(
        access,
        createRemoteJWKSet(new URL(`${e2e.server.url}/.well-known/jwks`)),
        { audience: 'acct-api' },
      );
      assert.equal(payload.scope, 'Job_Read Reports_Create');
      // An access token lives one hour (design §4).
      assert.equal(payload.exp! - payload.iat!, 3600);
      await page.getByText('Job_Read, Reports_Create').waitFor();
      await page.getByRole('button', { name: 'Copy Access token' }).click();
      await page.getByText('Access token copied').waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), access);
      await screenshot(page, 'e2e/developer', 'success');

      await page.goto(`${e2e.server.url}/manage/dev`);
      assert.equal(
        await policies(page)
          .getByRole('checkbox', { name: /Job_Read/ })
          .isChecked(),
        true,
      );
      assert.equal(
        await policies(page)
          .getByRole('checkbox', { name: /Reports_Create/ })
          .isChecked(),
        true,
      );
      assert.equal(
        await policies(page)
          .getByRole('checkbox', { name: /Job_Modify/ })
          .isChecked(),
        false,
      );
      const help = page.getByRole('link', { name: 'API documentation (opens in a new tab)' });
      assert.equal(await help.getAttribute('target'), '_blank');
      assert.equal(await help.getAttribute('rel'), 'noopener noreferrer');
    });
  });

  it('shows the tokens in whole lines, at 320 px and on a desktop, and offers to generate new ones', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await onPhoneAndDesktop(page, async (width) => {
        await policies(page)
          .getByRole('checkbox', { name: /Workflow_Read/ })
          .check();
        await page.getByRole('button', { name: 'Generate access token' }).click();
        for (const label of ['Access token', 'ID token']) {
          const box = page.getByLabel(label, { exact: true });
          const metrics = await box.evaluate((area: HTMLTextAreaElement) => {
            // The distance from one line to the next, measured on a copy with one line and with two.
            const probe = area.cloneNode() as HTMLTextAreaElement;
            probe.rows = 1;
            probe.style.height = 'auto';
            area.after(probe);
            probe.value = 'x';
            const one = probe.scrollHeight;
            probe.value = 'x\nx';
            const line = probe.scrollHeight - one;
            probe.remove();
            const style = getComputedStyle(area);
            return {
              line,
              visible: area.clientHeight,
              top: parseFloat(style.paddingTop),
              bottom: parseFloat(style.paddingBottom),
              overflows: area.scrollHeight > area.clientHeight,
            };
          });
          assert.ok(metrics.overflows, `${label} at ${width} px: the token is longer than the box`);
          // Scrolled to the top, the box ends on a line's end; scrolled to the bottom, it starts on a
          // line's start: no line is cut in either place (text scrolls under the padding too).
          for (const [end, padding] of [
            ['top', metrics.top],
            ['bottom', metrics.bottom],
          ] as const) {
            const lines = (metrics.visible - padding) / metrics.line;
            assert.ok(
              Math.abs(lines - Math.round(lines)) < 0.05,
              `${label} at ${width} px, scrolled to the ${end}: ${lines.toFixed(2)} lines show (${JSON.stringify(metrics)})`,
            );
            assert.ok(Math.round(lines) >= 4, `${label} at ${width} px shows ${lines} lines`);
          }
        }
        await screenshot(page, 'e2e/developer', `success-${width}`);
      });
      await page.getByRole('link', { name: 'Generate new tokens' }).click();
      await page.waitForURL(`${e2e.server.url}/manage/dev`);
      assert.equal(
        await policies(page)
          .getByRole('checkbox', { name: /Workflow_Read/ })
          .isChecked(),
        true,
      );
    });
  });

  it('shows "choose at least one policy" as wide as the form, like the other messages', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await onPhoneAndDesktop(page, async (width) => {
        await policies(page)
          .getByRole('checkbox', { name: /Job_Read/ })
          .waitFor();
        await page.getByRole('button', { name: 'Generate access token' }).click();
        const alert = page.getByRole('alert').filter({ hasText: 'Choose at least one policy.' });
        const message = (await alert.boundingBox())!;
        const form = (await policies(page).boundingBox())!;
        assert.ok(
          Math.abs(message.width - form.width) < 1 && Math.abs(message.x - form.x) < 1,
          `at ${width} px the message is ${message.width} px wide at ${message.x}, the form ${form.width} px at ${form.x}`,
        );
      });
    });
  });

  it('refuses carol a policy her permissions do not allow', async () => {
    await withPage(async ({ page }) => {
      await as(page, 'carol@globex.test');
      await page.goto(`${e2e.server.url}/manage/dev`);
      await policies(page)
        .getByRole('checkbox', { name: /Team_Admin/ })
        .check();
      await page.getByRole('button', { name: 'Generate access token' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'You are not allowed to use one of the chosen policies.' })
        .waitFor();
      assert.equal(new URL(page.url()).pathname, '/manage/dev');
    });
  });
});

/** Read the QR code on screen (a screenshot of it, decoded with jsQR). */
async function readQr(page: Page): Promise<string> {
  const image = PNG.sync.read(await page.locator('acct-portal .qr-code').screenshot());
  const found = jsQR(
    new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length),
    image.width,
    image.height,
  );
  assert.ok(found, 'a QR code was found in the screenshot');
  return found.data;
}

function exchange(deviceCode: string) {
  return fetch(`${e2e.server.url}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: deviceCode,
      client_id: 'acct-mobile',
    }),
  });
}

describe('QR code login', () => {
  it("shows a QR code the mobile app can exchange once for ada's tokens; an expired one fails", async () => {
    await withPage(async ({ page }) => {
      await as(page, 'ada@acme.test');
      await page.goto(`${e2e.server.url}/manage/qr`);
      await page.getByRole('button', { name: 'Generate QR code' }).click();
      await page.getByRole('img', { name: 'QR code for signing in to the mobile app' }).waitFor();
      const box = await page.locator('acct-portal .qr-code').boundingBox();
      assert.equal(Math.round(box!.width), 400);
      await screenshot(page, 'e2e/developer', 'qr');
      const payload = JSON.parse(await readQr(page)) as { device_code: string; user_code: string };
      await page.getByText(`Code ${payload.user_code}.`, { exact: false }).waitFor();

      const first = await exchange(payload.device_code);
      assert.equal(first.status, 200);
      const { access_token } = (await first.json()) as { access_token: string };
      const info = await fetch(`${e2e.server.url}/connect/userinfo`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      assert.equal(((await info.json()) as { email: string }).email, 'ada@acme.test');
      const second = await exchange(payload.device_code);
      assert.equal(((await second.json()) as { error: string }).error, 'invalid_grant');

      await page.getByRole('button', { name: 'Generate QR code' }).click();
      // The caption and the code render together: once the caption names another code, so does the image.
      const caption = page.locator('acct-portal figure.qr figcaption');
      await caption
        .filter({ hasNotText: `Code ${payload.user_code}.` })
        .filter({ hasText: /^Code / })
        .waitFor();
      const next = JSON.parse(await readQr(page)) as { device_code: string; user_code: string };
      assert.notEqual(next.device_code, payload.device_code);
      assert.notEqual(next.user_code, payload.user_code);
      assert.match((await caption.textContent()) ?? '', new RegExp(`^Code ${next.user_code}\\.`));
      e2e.server.clock.advance(DEVICE_CODE_TTL_S * 1000 + 1);
      try {
        assert.equal(
          ((await (await exchange(next.device_code)).json()) as { error: string }).error,
          'expired_token',
        );
      } finally {
        e2e.server.clock.offset = 0;
      }
    });
  });
});
