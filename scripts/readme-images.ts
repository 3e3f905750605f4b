/**
 * The README's two pictures (docs/images/), taken from the demo as `npm start` serves it: the portal's
 * manage screen signed in as ada, and the partner page with `<acct-login>`. Run after `npm run build`:
 * node --import tsx scripts/readme-images.ts
 * The server gets a throwaway data folder and free ports; the pictures are small (1×, 960 wide).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { DEMO_PASSWORD } from '../demo/server/db/seed';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium.mjs';
import { freePort } from '../test/support/test-server';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'docs', 'images');

const [port, partnerPort] = [await freePort(), await freePort()];
const data = mkdtempSync(join(tmpdir(), 'acct-readme-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'demo/server/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(port),
    PARTNER_PORT: String(partnerPort),
    STANDIN_PORTS: '0,0,0,0',
    DATA_DIR: data,
    LOG_LEVEL: 'warn',
  },
});
const portal = `http://localhost:${port}`;
try {
  for (
    let tries = 0;
    !(await fetch(`${portal}/healthz`).then(
      (r) => r.ok,
      () => false,
    ));
    tries++
  ) {
    if (tries > 3000) throw new Error('the demo server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', ...CHROMIUM_ARGS],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 960, height: 600 }, locale: 'en-US' });
    await page.goto(`${portal}/login/acme`);
    await page.getByLabel('Email').fill('ada@acme.test');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto(`${portal}/manage`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.screenshot({ path: join(OUT, 'portal.png'), animations: 'disabled' });

    const partner = await browser.newPage({ viewport: { width: 960, height: 600 }, locale: 'en-US' });
    await partner.goto(`http://localhost:${partnerPort}/partner.html`);
    await partner.getByLabel('Password', { exact: true }).waitFor();
    // The element focuses its e-mail field, which scrolls the page: the picture shows it from the top.
    await partner.evaluate(() => window.scrollTo(0, 0));
    await partner.screenshot({ path: join(OUT, 'partner.png'), animations: 'disabled', fullPage: true });
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(data, { recursive: true, force: true });
}
