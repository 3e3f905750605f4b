/**
 * A team's own single-page app, registered by its admin through the API, on an origin the operator never
 * put in CORS_ORIGINS: oidc-client-ts in the page reads discovery, signs a member in through the portal
 * with the code flow and PKCE, and calls userinfo — every call across origins from the browser.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { screenshot, useE2E } from '../support/browser';
import { freePort, tokenFor } from '../support/test-server';

const e2e = useE2E();

const OIDC_CLIENT_TS = readFileSync(
  join(
    dirname(createRequire(import.meta.url).resolve('oidc-client-ts/package.json')),
    'dist/browser/oidc-client-ts.min.js',
  ),
  'utf8',
);

/** The app's one page: a button to sign in, and who is signed in once back (from userinfo). */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Team SPA</title>
<script src="/oidc-client-ts.js"></script><script type="module" src="/app.js"></script></head>
<body><main><h1>Team SPA</h1><button id="sign-in">Sign in</button><p id="who"></p></main></body></html>`;

const appScript = (issuer: string, clientId: string) => `
const manager = new oidc.UserManager({
  authority: ${JSON.stringify(issuer)},
  client_id: ${JSON.stringify(clientId)},
  redirect_uri: location.origin + '/',
  scope: 'openid profile email',
});
document.getElementById('sign-in').addEventListener('click', () => void manager.signinRedirect());
const who = document.getElementById('who');
if (new URLSearchParams(location.search).has('code')) {
  try {
    const user = await manager.signinCallback();
    const answer = await fetch(${JSON.stringify(`${issuer}/connect/userinfo`)}, {
      headers: { authorization: 'Bearer ' + user.access_token },
    });
    const info = await answer.json();
    who.textContent = 'Signed in: ' + info.email + ' (' + info.team + ')';
  } catch (error) {
    who.textContent = 'Failed: ' + error.message;
  }
}`;

describe('a team’s single-page app on an origin of its own', () => {
  let site: Server;
  let origin = '';
  let clientId = '';

  before(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    const { accessToken } = await tokenFor(e2e.server.server.app, 'ada@acme.test');
    const registered = await fetch(`${e2e.server.url}/api/team/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Team SPA', kind: 'spa', redirectUris: [`${origin}/`] }),
    });
    assert.equal(registered.status, 201, await registered.clone().text());
    clientId = ((await registered.json()) as { app: { clientId: string } }).app.clientId;
    const script = appScript(e2e.server.url, clientId);
    site = createServer((request, response) => {
      const path = new URL(request.url ?? '/', origin).pathname;
      const [type, body] =
        path === '/oidc-client-ts.js'
          ? ['text/javascript', OIDC_CLIENT_TS]
          : path === '/app.js'
            ? ['text/javascript', script]
            : ['text/html; charset=utf-8', PAGE];
      response.writeHead(200, { 'content-type': type }).end(body);
    });
    await new Promise<void>((listening) => site.listen(port, 'localhost', listening));
  });
  after(() => new Promise<void>((closed) => site.close(() => closed())));

  it('signs a member in from its own origin and reads userinfo', async () => {
    await e2e.withPage(async ({ page }) => {
      const failures: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') failures.push(message.text());
      });
      await page.goto(`${origin}/`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // The app belongs to acme: the provider goes straight to acme's sign-in screen.
      await page.waitForURL((address) => address.pathname === '/login/acme');
      await page.getByLabel('Email').fill('ada@acme.test');
      await page.getByLabel('Password').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((address) => address.origin === origin);
      await page.locator('#who').filter({ hasText: 'Signed in: ada@acme.test (acme)' }).waitFor();
      await screenshot(page, 'e2e/team-spa', 'signed-in');
      assert.deepEqual(failures, []);
    });
  });
});
