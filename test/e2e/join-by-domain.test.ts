/**
 * Joining a team by its domain, end to end: a person at acme.test asks from the team step, the code
 * comes by real SMTP, ada approves on the team page, and the invitation mailed to the person sets a
 * password and signs them in.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { failedResource, screenshot, signInContext, useE2E } from '../support/browser';
import { TestSmtp } from '../support/smtp';
import { sessionFor } from '../support/test-server';
import { readLocale, translator } from '../support/texts';

let smtp: TestSmtp | undefined;
// The server's settings name the SMTP server, so it starts first, in the same hook.
const e2e = useE2E(async () => {
  smtp = await TestSmtp.start();
  return { SMTP_URL: smtp.url, LOGIN_ADDRESS_LIMIT: '10000' };
});
after(() => smtp?.close());
const t = translator(readLocale('en'));
/** The team step asks whether the domain signs in through single sign-on first: 404, it does not. */
const REFUSED = [failedResource(404)];

describe('joining a team by its domain', () => {
  it('asks from the team step, is approved by an admin, sets a password and is signed in', async () => {
    const email = 'lin@acme.test';
    await e2e.withPage(
      async ({ page }) => {
        await page.goto(`${e2e.server.url}/login/team`);
        const portal = page.locator('acct-portal');
        await portal.getByLabel(t('login.team.label')).fill(email);
        await portal.getByRole('button', { name: t('login.continue') }).click();
        const ask = portal.getByRole('button', { name: t('login.join.ask', { team: 'Acme' }) });
        await ask.waitFor();
        await screenshot(page, 'e2e/join', 'offer');
        await ask.click();
        await portal
          .getByRole('heading', { level: 1, name: t('login.join.title', { team: 'Acme' }) })
          .waitFor();
        // No name: refused here, at its field.
        await portal.getByRole('button', { name: t('login.join.send') }).click();
        await portal.getByText(t('login.join.nameRequired')).waitFor();
        await portal.getByLabel(t('login.join.name')).fill('Lin Joiner');
        await portal.getByRole('button', { name: t('login.join.send') }).click();
        const mail = await smtp!.next(email, /code/i);
        const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
        assert.ok(code, mail.text);
        const field = portal.getByLabel(t('login.join.code'));
        await field.waitFor();
        await screenshot(page, 'e2e/join', 'code');
        // A wrong code first: said at the field.
        await field.fill(code === '000000' ? '111111' : '000000');
        await portal.getByRole('button', { name: t('login.join.confirm') }).click();
        await portal.getByText(t('login.join.wrongCode')).waitFor();
        await field.fill(code);
        await portal.getByRole('button', { name: t('login.join.confirm') }).click();
        await portal.getByRole('heading', { level: 1, name: t('login.join.doneTitle') }).waitFor();
        await portal.getByText(t('login.join.done', { email })).waitFor();
        await screenshot(page, 'e2e/join', 'done');
      },
      [...REFUSED, failedResource(400)],
    );

    await e2e.withPage(async ({ page }) => {
      await signInContext(page.context(), (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
      await page.goto(`${e2e.server.url}/manage/team`);
      const region = page.getByRole('region', { name: t('team.joinRequests.title'), exact: false });
      const approve = region.getByRole('button', {
        name: t('team.joinRequests.approveLabel', { name: 'Lin Joiner', email }),
      });
      await approve.waitFor();
      await region.getByText(t('team.joinRequests.count', { count: 1 })).waitFor({ state: 'attached' });
      await screenshot(page, 'e2e/join', 'requests');
      await approve.click();
      await region.getByText(t('team.joinRequests.none')).waitFor();
    });

    const welcome = await smtp!.next(email, /welcome/i);
    assert.ok(welcome.link?.startsWith(`${e2e.server.url}/login/acme/invite?id=`), welcome.text);
    await e2e.withPage(async ({ page }) => {
      await page.goto(welcome.link!);
      await page.getByRole('heading', { level: 1, name: t('invite.title', { team: 'Acme' }) }).waitFor();
      await page.getByLabel(t('invite.name')).fill('Lin Joiner');
      await page.getByLabel(t('login.reset.newPassword'), { exact: true }).fill('lin chose a long one');
      await page.getByLabel(t('login.reset.confirmPassword')).fill('lin chose a long one');
      await page.getByRole('button', { name: t('invite.submit') }).click();
      await page.waitForURL(`${e2e.server.url}/manage`);
      await page.locator('acct-portal .header-name').getByText('Lin Joiner').waitFor();
    });
  });
});
