import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { failedResource, screenshot, signInContext, useE2E } from '../support/browser';
import { sha256 } from '../../demo/server/lib/crypto';
import { sessionFor } from '../support/test-server';

const e2e = useE2E({ LOGIN_ADDRESS_LIMIT: '10000' });
const { withPage } = e2e;

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
}

async function checkLogin(page: Page): Promise<{ authenticated: boolean }> {
  return page.evaluate(async () => {
    const xsrf = /(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const response = await fetch('/account/check', {
      method: 'POST',
      headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) },
    });
    return response.json();
  });
}

describe('sign-in journey in the portal', () => {
  it('team → sign in as ada → signed in → sign out → unauthenticated', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/login/team`);
      await page.getByLabel('Team name').fill(' Acme ');
      await screenshot(page, 'e2e/sign-in', 'team-intoware-light');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${e2e.server.url}/login/acme`);
      await page.getByLabel('Email').waitFor();
      await screenshot(page, 'e2e/sign-in', 'sign-in-intoware-light');
      await signIn(page, 'ada@acme.test', DEMO_PASSWORD);
      await page.waitForURL(`${e2e.server.url}/manage`);
      await page.locator('acct-portal .header-name').getByText('Ada Lovelace').waitFor();
      assert.equal(await page.locator('acct-portal .avatar-button .avatar').textContent(), 'AL');
      const signedIn = (await checkLogin(page)) as { authenticated: boolean; session?: string };
      assert.equal(signedIn.authenticated, true);
      assert.equal(typeof signedIn.session, 'string');
      await page.locator('acct-portal .avatar-button').click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(`${e2e.server.url}/login/team`);
      assert.deepEqual(await checkLogin(page), { authenticated: false });
      assert.equal(await page.evaluate(() => localStorage.getItem('defaultTeam')), 'acme');
    });
  });

  it('says when the team is unknown or disabled', async () => {
    await withPage(
      async ({ page }) => {
        await page.goto(`${e2e.server.url}/login/team`);
        await page.getByLabel('Team name').fill('nowhere');
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByText('We cannot find that team. Check the name and try again.').waitFor();
        await page.getByLabel('Team name').fill('initech');
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByText('This team is not enabled.').waitFor();
        assert.equal(page.url(), `${e2e.server.url}/login/team`);
      },
      [failedResource(404)],
    );
  });

  it('locks after five wrong passwords', async () => {
    await withPage(
      async ({ page }) => {
        await page.goto(`${e2e.server.url}/login/globex`);
        for (let attempt = 1; attempt <= 4; attempt++) {
          await signIn(page, 'carol@globex.test', `wrong-${attempt}`);
          await page.getByRole('alert').filter({ hasText: 'The email or password is incorrect.' }).waitFor();
          await page.getByRole('button', { name: 'Continue' }).waitFor({ state: 'visible' });
          await page.waitForFunction(
            () => !document.querySelector('acct-portal')?.shadowRoot?.querySelector('fieldset[disabled]'),
          );
        }
        await signIn(page, 'carol@globex.test', 'wrong-5');
        await page
          .getByRole('alert')
          .filter({ hasText: 'This account is locked. Try again later.' })
          .waitFor();
        await screenshot(page, 'e2e/sign-in', 'locked-intoware-light');
      },
      [failedResource(401), failedResource(403)],
    );
  });

  it('shows the locked message for locked@acme.test', async () => {
    await withPage(
      async ({ page }) => {
        await page.goto(`${e2e.server.url}/login/acme`);
        await signIn(page, 'locked@acme.test', DEMO_PASSWORD);
        await page
          .getByRole('alert')
          .filter({ hasText: 'This account is locked. Try again later.' })
          .waitFor();
      },
      [failedResource(403)],
    );
  });

  it('shows each Error code, on the sign-in screen and its error variant', async () => {
    const messages = {
      UserLocked: 'This account is locked. Try again later.',
      UserDisabled:
        "An administrator has turned this account off. Ask your team's administrator to turn it back on.",
      UserAlreadyExists: 'An account already exists for this sign-in.',
      ForbiddenSignup: 'There is no account for this sign-in.',
      InvalidTenant: 'This email account cannot be used to sign in to this team.',
    };
    await withPage(async ({ page }) => {
      for (const [code, message] of Object.entries(messages)) {
        for (const path of ['/login/acme', '/login/acme/error']) {
          await page.goto(`${e2e.server.url}${path}?Error=${code}`);
          await page.getByRole('alert').filter({ hasText: message }).waitFor();
        }
      }
      await screenshot(page, 'e2e/sign-in', 'error-code-intoware-light');
    });
  });

  it('honours ReturnUrl=/manage/qr, kept through the team screen', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/login/team?ReturnUrl=%2Fmanage%2Fqr`);
      await page.getByLabel('Team name').fill('acme');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${e2e.server.url}/login/acme?ReturnUrl=%2Fmanage%2Fqr`);
      await signIn(page, 'ada@acme.test', DEMO_PASSWORD);
      await page.waitForURL(`${e2e.server.url}/manage/qr`);
    });
  });

  it('never leaves the origin for a hostile ReturnUrl', async () => {
    const hostile = ['//evil.test', '/\\evil.test', '/%09/evil.test', 'https://evil.test', '/%5Cevil.test'];
    for (const value of hostile) {
      await withPage(async ({ page }) => {
        const requested: string[] = [];
        page.on('request', (request) => {
          if (!request.url().startsWith(e2e.server.url)) requested.push(request.url());
        });
        // The value as a browser would carry it in the query (the page decodes it once).
        await page.goto(
          `${e2e.server.url}/login/acme?ReturnUrl=${value.includes('%') ? value : encodeURIComponent(value)}`,
        );
        await signIn(page, 'ada@acme.test', DEMO_PASSWORD);
        await page.waitForURL(`${e2e.server.url}/manage`);
        assert.equal(new URL(page.url()).origin, e2e.server.url, value);
        assert.deepEqual(requested, [], value);
      });
    }
  });

  it('sends a signed-in user away from the sign-in screen', async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${e2e.server.url}/login/acme`);
      await signIn(page, 'ada@acme.test', DEMO_PASSWORD);
      await page.waitForURL(`${e2e.server.url}/manage`);
      await page.goto(`${e2e.server.url}/login/acme`);
      await page.waitForURL(`${e2e.server.url}/manage`);
    });
  });
});

describe('sign-in on the partner origin', () => {
  it('signs in across origins (CORS with credentials) and the page receives acct-signed-in', async () => {
    await withPage(async ({ page }) => {
      const crossOrigin: string[] = [];
      page.on('response', (response) => {
        if (response.url().startsWith(e2e.server.url)) {
          crossOrigin.push(
            `${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`,
          );
        }
      });
      await page.goto(`${e2e.server.partnerUrl}/partner.html`);
      await page.getByLabel('Email').waitFor();
      await screenshot(page, 'e2e/sign-in', 'partner-intoware-light');
      await signIn(page, 'ada@acme.test', DEMO_PASSWORD);
      await page.getByText('You are signed in as ada@acme.test.').waitFor();
      const log = await page.locator('#event-log li').allTextContents();
      assert.deepEqual(log, ['acct-signed-in {"team":"acme","email":"ada@acme.test"}']);
      // Without `redirect` the host page stays where it is.
      assert.equal(page.url(), `${e2e.server.partnerUrl}/partner.html`);
      assert.ok(crossOrigin.includes('POST /account/login 200'), crossOrigin.join('\n'));
      assert.ok(crossOrigin.includes('POST /connect/token 200'), crossOrigin.join('\n'));
      assert.ok(crossOrigin.includes('GET /connect/userinfo 200'), crossOrigin.join('\n'));
      await screenshot(page, 'e2e/sign-in', 'partner-signed-in-intoware-light');
    });
  });

  // A bare boolean attribute is on, as in HTML; `="true"` still is.
  for (const redirect of ['', 'true']) {
    it(`with redirect${redirect ? `="${redirect}"` : ' (bare)'}, navigates the host page to its return-url after signing in`, async () => {
      await withPage(async ({ page }) => {
        // The partner page as a site would write it with redirect: the demo's page with two attributes
        // more, added as the parser inserts the element (serving a changed copy with page.route would make
        // Chromium treat the page as public and refuse its calls to the loopback issuer).
        await page.addInitScript((value) => {
          new MutationObserver((_records, observer) => {
            const login = document.querySelector('acct-login');
            if (!login) return;
            login.setAttribute('redirect', value);
            login.setAttribute('return-url', '/suite-app.html');
            observer.disconnect();
          }).observe(document, { childList: true, subtree: true });
        }, redirect);
        await page.goto(`${e2e.server.partnerUrl}/partner.html`);
        assert.equal(await page.locator('acct-login').getAttribute('redirect'), redirect);
        await signIn(page, 'ada@acme.test', DEMO_PASSWORD);
        await page.waitForURL(`${e2e.server.partnerUrl}/suite-app.html`);
        // The suite app's header, on the same partner origin, knows the session the sign-in started.
        await page.getByRole('button', { name: 'Account menu for Ada Lovelace' }).waitFor();
      });
    });
  }
});

describe('a session ended elsewhere', () => {
  it('says so on the team screen and keeps the team', async () => {
    await withPage(
      async ({ page }, context) => {
        const session = await sessionFor(e2e.server.server.app, 'ada@acme.test');
        await signInContext(context, session.token);
        await page.goto(`${e2e.server.url}/manage`);
        await page.locator('acct-portal .header-name').waitFor();
        // The manage area must have finished loading before the session ends: a load still in flight
        // would meet the refusal first and leave for the sign-in screen before the link exists.
        const qrLink = page.getByRole('link', { name: 'QR code sign-in' });
        await qrLink.waitFor();
        await page.getByRole('link', { name: 'Users' }).waitFor();
        await page.locator('acct-portal .loading').first().waitFor({ state: 'detached' });
        // Ended from another device (the sessions screen does the same).
        await e2e.server.server.app.services.sessions.revoke(sha256(session.token));
        await qrLink.click();
        await page.waitForURL((url) => url.pathname === '/login/team');
        await page
          .getByText('You were signed out: your session was ended elsewhere, or your account was removed.', {
            exact: false,
          })
          .waitFor();
        assert.equal(await page.getByLabel('Team name').inputValue(), 'acme');
        await screenshot(page, 'e2e/sign-in', 'session-ended');
      },
      // The revoked session's anti-forgery token is refused (403).
      [failedResource(401), failedResource(403)],
    );
  });
});
