import assert from 'node:assert/strict';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { screenshot, signInContext, type ServerHandle } from './browser';
import type { IdpUser, SimpleSamlPhp } from './simplesamlphp';
import { sessionFor } from './test-server';

/**
 * What acme's owner, ada, does on the Single sign-on screen to connect SimpleSAMLphp
 * (support/simplesamlphp.ts): add a generic SAML connection, register this site at the provider, enter
 * the provider's details from its metadata URL, test it through the provider's login page, turn it on.
 */

/** A connection's row on the Single sign-on screen (or a domain's on the Domains screen). */
export const row = (page: Page, name: string): Locator =>
  page.locator('acct-portal li.member', { has: page.locator('.member-name', { hasText: name }) });

/** The value behind one of the row's copy buttons, as the admin's clipboard gets it. */
async function copied(page: Page, name: string, value: string): Promise<string> {
  await row(page, name)
    .getByRole('button', { name: `Copy the ${value} of ${name}` })
    .click();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** The Single sign-on screen's steps against one test server and one SimpleSAMLphp. */
export function samlAdmin(e2e: ServerHandle, simplesamlphp: { readonly idp: SimpleSamlPhp }, shots: string) {
  /**
   * Ada opens Single sign-on, adds a generic SAML connection, registers this site at SimpleSAMLphp
   * with the values copied from the screen, and enters SimpleSAMLphp's details.
   */
  async function setUp(page: Page, name: string) {
    const { idp } = simplesamlphp;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.url });
    await signInContext(page.context(), (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
    await page.goto(`${e2e.server.url}/manage/team/connections`);
    await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();

    await page.getByRole('button', { name: 'Add a connection' }).click();
    const add = page.getByRole('dialog', { name: 'Add a connection' });
    await add.getByRole('radio', { name: 'Another SAML 2.0 provider', exact: true }).check();
    await add.getByRole('textbox', { name: 'Name' }).fill(name);
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await add.waitFor({ state: 'detached' });

    const entityId = await copied(page, name, 'Entity ID (Audience URI)');
    const acsUrl = await copied(page, name, 'ACS URL (Reply URL)');
    assert.match(entityId, new RegExp(`^${e2e.server.url}/saml/[^/]+$`));
    assert.equal(acsUrl, `${entityId}/acs`);
    idp.trust({ entityId, acsUrl });

    // The provider's details from its published metadata, fetched by the server.
    await row(page, name)
      .getByRole('button', { name: `Enter the provider’s details for ${name}` })
      .click();
    const details = page.getByRole('dialog', { name: `Provider’s details for ${name}` });
    await details.getByRole('radio', { name: 'Metadata URL', exact: true }).check();
    await details.getByRole('textbox', { name: 'Metadata URL' }).fill(idp.metadataUrl);
    await details.getByRole('button', { name: 'Read metadata' }).click();
    await details.waitFor({ state: 'detached' });
    await row(page, name).getByText(idp.ssoUrl, { exact: true }).waitFor();
    await row(page, name).getByText('CN=SimpleSAMLphp test IdP, valid until').waitFor();
  }

  /**
   * Press Test: the provider's page opens in a new tab, where `user` signs in on SimpleSAMLphp's form;
   * the tab comes back to the Single sign-on screen with the test's result. What went wrong on this
   * site's pages there (console errors, exceptions, CSP violations) is returned for the test to check.
   */
  async function testSignIn(page: Page, context: BrowserContext, name: string, user: IdpUser, shot?: string) {
    const opened = context.waitForEvent('page');
    await row(page, name)
      .getByRole('button', { name: `Test ${name}` })
      .click();
    const tab = await opened;
    const errors: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error' && message.location().url.startsWith(e2e.server.url))
        errors.push(message.text());
    });
    tab.on('pageerror', (error) => errors.push(error.message));
    await signInAtProvider(tab, simplesamlphp.idp, user, shot ? { folder: shots, name: shot } : undefined);
    await tab.waitForURL(
      (url) =>
        url.origin === e2e.server.url &&
        url.pathname === '/manage/team/connections' &&
        url.searchParams.has('test'),
    );
    await tab.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();
    // The site's page in the tab is watched as withPage watches its own: console, exceptions, CSP.
    const problems = async () => [
      ...errors,
      ...(await tab.evaluate(() => window.__cspViolations ?? [])).map((v) => `CSP violation: ${v}`),
    ];
    return { tab, problems };
  }

  /** Turn the tested connection on, as its row says. */
  async function turnOn(page: Page, name: string) {
    const connection = row(page, name);
    await connection.getByRole('button', { name: `Turn on ${name}` }).click();
    await page.getByText(`${name} is on`).waitFor();
    await connection.getByText('On', { exact: true }).waitFor();
    await connection.getByRole('button', { name: `Turn off ${name}` }).waitFor();
  }

  return { setUp, testSignIn, turnOn };
}

/**
 * `user` signs in on SimpleSAMLphp's login page, which `page` is on its way to; a screenshot of the
 * filled form first if `shot` names one.
 */
export async function signInAtProvider(
  page: Page,
  idp: SimpleSamlPhp,
  user: IdpUser,
  shot?: { folder: string; name: string },
) {
  await page.waitForURL((url) => url.href.startsWith(`${idp.baseUrl}module.php/core/loginuserpass.php`));
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  if (shot) await screenshot(page, shot.folder, shot.name);
  await page.getByRole('button', { name: 'Login' }).click();
}
