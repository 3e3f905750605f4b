/**
 * Every screen, in the three brands, light and dark, written to test-results/screens/ for people to look
 * at. Each visit is also watched for console errors and CSP violations. Later screens add rows here.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { failedResource, launchBrowser, screenshot, signInContext, watchedPage } from '../support/browser';
import { sessionFor, startTestServer, type TestServer } from '../support/test-server';

interface Shot {
  name: string;
  /** Go to the screen and bring it into the state to capture. */
  show(page: Page, server: TestServer): Promise<void>;
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Ask for a reset link through the API and read it from the server's outbox (no SMTP here). */
async function outboxLink(server: TestServer, team: string, email: string): Promise<string> {
  const started = Date.now();
  await fetch(`${server.url}/api/user/password/request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ teamName: team, userName: email }),
  });
  const outbox = join(server.dir, 'outbox');
  for (;;) {
    const notes = (existsSync(outbox) ? readdirSync(outbox, { withFileTypes: true }) : [])
      .filter((f) => f.name.endsWith('.json'))
      .map(
        (f) =>
          JSON.parse(readFileSync(join(server.dir, 'outbox', f.name), 'utf8')) as {
            to: string;
            date: string;
            link: string | null;
          },
      )
      .filter((n) => n.to === email && n.link && Date.parse(n.date) >= started - 1000);
    if (notes.length) return notes.sort((a, b) => a.date.localeCompare(b.date)).at(-1)!.link!;
    if (Date.now() - started > 10_000) throw new Error(`no outbox mail for ${email}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function signInAs(page: Page, server: TestServer, email: string) {
  await signInContext(page.context(), (await sessionFor(server.server.app, email)).token);
}

const SHOTS: Shot[] = [
  {
    name: 'team',
    async show(page, server) {
      await page.goto(`${server.url}/login/team`);
      await page.getByLabel('Team name').waitFor();
    },
  },
  {
    name: 'team-error',
    async show(page, server) {
      await page.goto(`${server.url}/login/team`);
      await page.getByLabel('Team name').fill('');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('Enter your team name.').waitFor();
    },
  },
  {
    name: 'sign-in',
    async show(page, server) {
      await page.goto(`${server.url}/login/acme`);
      await page.getByLabel('Password').waitFor();
    },
  },
  {
    name: 'sign-in-invalid',
    async show(page, server) {
      await page.goto(`${server.url}/login/globex`);
      await signIn(page, 'carol@globex.test', 'not-the-password');
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'sign-in-error-code',
    async show(page, server) {
      await page.goto(`${server.url}/login/acme?Error=InvalidTenant`);
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'sign-in-provider-only',
    async show(page, server) {
      await page.goto(`${server.url}/login/umbrella`);
      await page.getByRole('button', { name: 'Sign in with Microsoft' }).waitFor();
    },
  },
  {
    name: 'signed-in-header',
    async show(page, server) {
      await page.goto(`${server.url}/login/acme`);
      await signIn(page, 'ada@acme.test', DEMO_PASSWORD);
      await page.locator('acct-portal .header-name').getByText('Ada Lovelace').waitFor();
    },
  },
  {
    name: 'forgot',
    async show(page, server) {
      await page.goto(`${server.url}/login/acme/forgotPassword`);
      await page.getByRole('button', { name: 'Get reset link' }).click();
      await page.getByText('Enter a valid email address.').waitFor();
    },
  },
  {
    name: 'forgot-sent',
    async show(page, server) {
      await page.goto(`${server.url}/login/acme/forgotPassword`);
      await page.getByLabel('Email').fill('nobody@acme.test');
      await page.getByRole('button', { name: 'Get reset link' }).click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    },
  },
  {
    name: 'reset-form',
    async show(page, server) {
      await page.goto(`${server.url}/login/acme/resetPassword?id=x&token=y`);
      await page.getByRole('button', { name: 'Reset password' }).click();
      await page.getByText('Confirm your new password.').waitFor();
    },
  },
  {
    name: 'reset-error',
    async show(page, server) {
      const ada = await server.server.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'ada@acme.test')
        .executeTakeFirstOrThrow();
      await page.goto(`${server.url}/login/acme/resetPassword?id=${ada.id}&token=not-a-token`);
      await page.getByLabel('New password', { exact: true }).fill('a long enough password');
      await page.getByLabel('Confirm new password').fill('a long enough password');
      await page.getByRole('button', { name: 'Reset password' }).click();
      await page.getByRole('heading', { name: 'We could not reset your password' }).waitFor();
    },
  },
  {
    name: 'reset-success',
    async show(page, server) {
      const link = await outboxLink(server, 'globex', 'carol@globex.test');
      await page.goto(link);
      await page.getByLabel('New password', { exact: true }).fill('portal-demo-pass');
      await page.getByLabel('Confirm new password').fill('portal-demo-pass');
      await page.getByRole('button', { name: 'Reset password' }).click();
      await page.getByRole('heading', { name: 'Password reset' }).waitFor();
    },
  },
  {
    name: 'manage-info',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.url}/manage`);
      await page.getByText('Owner').waitFor();
      await page.getByText('Last changed').waitFor();
    },
  },
  {
    name: 'manage-name-dialog',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.url}/manage`);
      await page.getByRole('button', { name: 'Edit name' }).click();
      await page.getByLabel('Your name').fill('x'.repeat(51));
      await page.getByRole('button', { name: 'Set name' }).click();
      await page.getByText('Your name cannot be more than 50 characters.').waitFor();
    },
  },
  {
    name: 'manage-password-dialog',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.url}/manage`);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.locator('dialog[open]').getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Enter your current password.').waitFor();
    },
  },
  {
    name: 'manage-set-password',
    async show(page, server) {
      await signInAs(page, server, 'dan@umbrella.test');
      await page.goto(`${server.url}/manage`);
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.locator('dialog[open]').getByRole('heading', { name: 'Set password' }).waitFor();
    },
  },
  {
    name: 'dev-tools',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.url}/manage/dev`);
      await page.getByRole('checkbox', { name: /Job_Read/ }).check();
    },
  },
  {
    name: 'dev-success',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.url}/manage/dev`);
      await page.getByRole('checkbox', { name: /Workflow_Read/ }).check();
      await page.getByRole('button', { name: 'Generate access token' }).click();
      await page.getByLabel('Access token', { exact: true }).waitFor();
    },
  },
  {
    name: 'qr',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.url}/manage/qr`);
      await page.getByRole('button', { name: 'Generate QR code' }).click();
      await page.getByRole('img', { name: 'QR code for signing in to the mobile app' }).waitFor();
    },
  },
  {
    name: 'account-menu',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.url}/manage`);
      await page.getByRole('button', { name: 'Account menu for Ada Lovelace' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    },
  },
  {
    name: 'apps-menu',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.url}/manage`);
      await page.getByRole('button', { name: 'Apps' }).click();
      await page.getByRole('menuitem', { name: 'Account' }).waitFor();
    },
  },
  {
    name: 'search',
    async show(page, server) {
      await page.goto(`${server.url}/search?q=workflow`);
      await page.getByText('Searching for “workflow”…').waitFor();
    },
  },
  {
    name: 'manage-team',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.url}/manage/team`);
      await page.getByText('Pending invites').waitFor();
    },
  },
  {
    name: 'manage-user',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.url}/manage/user`);
      await page.getByRole('button', { name: 'Add user' }).waitFor();
    },
  },
  {
    name: 'manage-group',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.url}/manage/group`);
      await page.getByText('Groups will be managed here.').waitFor();
    },
  },
  {
    name: 'suite-app',
    async show(page, server) {
      await signInAs(page, server, 'ada@acme.test');
      await page.goto(`${server.partnerUrl}/suite-app.html`);
      await page.getByRole('button', { name: 'Account menu for Ada Lovelace' }).waitFor();
    },
  },
  {
    name: 'partner',
    async show(page, server) {
      await page.goto(`${server.partnerUrl}/partner.html`);
      await page.getByLabel('Password').waitFor();
    },
  },
];

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(() => browser.close());

for (const brand of ['intoware', 'onsight', 'schenck'] as const) {
  describe(`screens, brand ${brand}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ BRAND: brand, LOGIN_ADDRESS_LIMIT: '10000' });
    });
    after(() => server.close());

    for (const theme of ['light', 'dark'] as const) {
      it(`captures every screen (${theme})`, async () => {
        for (const shot of SHOTS) {
          const context = await browser.newContext({ viewport: { width: 1024, height: 720 } });
          try {
            if (theme === 'dark') await context.addInitScript(() => localStorage.setItem('darkMode', 'true'));
            const watch = await watchedPage(context, [failedResource(401), failedResource(410)]);
            await shot.show(watch.page, server);
            await screenshot(watch.page, 'screens', `${shot.name}-${brand}-${theme}`);
            assert.deepEqual(await watch.problems(), [], `${shot.name} ${brand} ${theme}`);
          } finally {
            await context.close();
          }
        }
      });
    }
  });
}
