/**
 * A team's SAML connection end to end against a real identity provider's pages: Debian's SimpleSAMLphp
 * (test/support/simplesamlphp.ts). Ada, acme's owner, adds a connection on the Single sign-on screen,
 * copies this site's values from it into the provider (`trust`), enters the provider's details from its
 * published metadata, presses Test, signs in on SimpleSAMLphp's login page in the new tab, lands back
 * on the screen with what the provider sent, and turns the connection on. A person whose e-mail is
 * outside acme's verified domains fails the test, and the screen says why.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DOMParser } from '@xmldom/xmldom';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { screenshot, signInContext, useE2E } from '../support/browser';
import { IDP_USERS, useSimpleSamlPhp, type IdpUser } from '../support/simplesamlphp';
import { sessionFor } from '../support/test-server';

const e2e = useE2E();
const simplesamlphp = useSimpleSamlPhp();
const { withPage } = e2e;
const SHOTS = 'e2e/saml-simplesamlphp';
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';

const row = (page: Page, name: string): Locator =>
  page.locator('acct-portal li.member', { has: page.locator('.member-name', { hasText: name }) });

/** What an admin reads off the provider's metadata page: its entity ID, sign-on URL and certificate. */
async function providerDetails() {
  const xml = await (await fetch(simplesamlphp.idp.metadataUrl)).text();
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement!;
  const sso = [...Array.from(root.getElementsByTagNameNS(MD, 'SingleSignOnService'))].find(
    (service) => service.getAttribute('Binding') === 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  );
  return {
    entityId: root.getAttribute('entityID')!,
    ssoUrl: sso!.getAttribute('Location')!,
    // The bare base64 a provider's page shows, not PEM: the field takes either.
    certificate: root.getElementsByTagNameNS(DS, 'X509Certificate')[0]!.textContent!.trim(),
  };
}

/** The value behind one of the row's copy buttons, as the admin's clipboard gets it. */
async function copied(page: Page, name: string, value: string): Promise<string> {
  await row(page, name)
    .getByRole('button', { name: `Copy the ${value} of ${name}` })
    .click();
  return page.evaluate(() => navigator.clipboard.readText());
}

/**
 * Ada opens Single sign-on, adds a generic SAML connection, registers this site at SimpleSAMLphp with
 * the values copied from the screen, and enters SimpleSAMLphp's details.
 */
async function setUp(page: Page, name: string) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.url });
  await signInContext(page.context(), (await sessionFor(e2e.server.server.app, 'ada@acme.test')).token);
  await page.goto(`${e2e.server.url}/manage/team/connections`);
  await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();

  await page.getByRole('button', { name: 'Add a connection' }).click();
  const add = page.getByRole('dialog', { name: 'Add a connection' });
  await add.getByRole('radio', { name: /^Another SAML 2.0 provider/ }).check();
  await add.getByRole('textbox', { name: 'Name' }).fill(name);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await add.waitFor({ state: 'detached' });

  const entityId = await copied(page, name, 'Entity ID (Audience URI)');
  const acsUrl = await copied(page, name, 'ACS URL (Reply URL)');
  assert.match(entityId, new RegExp(`^${e2e.server.url}/saml/[^/]+$`));
  assert.equal(acsUrl, `${entityId}/acs`);
  simplesamlphp.idp.trust({ entityId, acsUrl });

  const provider = await providerDetails();
  assert.equal(provider.entityId, simplesamlphp.idp.entityId);
  assert.equal(provider.ssoUrl, simplesamlphp.idp.ssoUrl);
  await row(page, name)
    .getByRole('button', { name: `Enter the provider’s details for ${name}` })
    .click();
  const details = page.getByRole('dialog', { name: `Provider’s details for ${name}` });
  await details.getByRole('textbox', { name: 'Identity provider entity ID' }).fill(provider.entityId);
  await details.getByRole('textbox', { name: 'Single sign-on URL (HTTP-Redirect)' }).fill(provider.ssoUrl);
  await details.getByRole('textbox', { name: 'Signing certificate', exact: true }).fill(provider.certificate);
  await details.getByRole('button', { name: 'Save' }).click();
  await details.waitFor({ state: 'detached' });
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
  await tab.waitForURL((url) =>
    url.href.startsWith(`${simplesamlphp.idp.baseUrl}module.php/core/loginuserpass.php`),
  );
  await tab.getByLabel('Username').fill(user.username);
  await tab.getByLabel('Password').fill(user.password);
  if (shot) await screenshot(tab, SHOTS, shot);
  await tab.getByRole('button', { name: 'Login' }).click();
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

describe('a SAML connection with SimpleSAMLphp', () => {
  it('is set up, tested through SimpleSAMLphp’s login page with the claims shown, and turned on', async () => {
    await withPage(async ({ page }, context) => {
      await setUp(page, 'SimpleSAMLphp');
      const dana = IDP_USERS.dana;
      const { tab, problems } = await testSignIn(page, context, 'SimpleSAMLphp', dana, 'simplesamlphp-login');
      const connection = row(tab, 'SimpleSAMLphp');
      await connection.getByText(/^The last test passed on .+\. Your provider sent:$/).waitFor();
      const fact = (label: string) =>
        connection.locator('dl.member-facts div', { hasText: label }).locator('dd');
      assert.equal(await fact('E-mail address').textContent(), dana.email);
      assert.equal(await fact('Name').textContent(), `${dana.givenName} ${dana.familyName}`);
      assert.equal(await fact('Groups').textContent(), dana.groups.join(', '));
      // The result takes focus as the tab comes back, so a screen reader reads it out.
      await tab.waitForFunction(() => {
        let active = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active?.hasAttribute('data-test-result') ?? false;
      });
      await screenshot(tab, SHOTS, 'test-passed');

      await connection.getByRole('button', { name: 'Turn on SimpleSAMLphp' }).click();
      await tab.getByText('SimpleSAMLphp is on').waitFor();
      await connection.getByText('On', { exact: true }).waitFor();
      await connection.getByRole('button', { name: 'Turn off SimpleSAMLphp' }).waitFor();
      await screenshot(tab, SHOTS, 'turned-on');
      assert.deepEqual(await problems(), []);
    });
  });

  it('fails the test for a person outside the team’s verified domains, and says so', async () => {
    await withPage(async ({ page }, context) => {
      await setUp(page, 'Partner IdP');
      const { tab, problems } = await testSignIn(page, context, 'Partner IdP', IDP_USERS.walter);
      const connection = row(tab, 'Partner IdP');
      await connection
        .getByText(
          /^The last test failed on .+\. The e-mail address is not at one of your team’s verified domains\.$/,
        )
        .waitFor();
      // Not tested: it cannot be turned on.
      await connection.getByText('A test must pass before the connection can be turned on.').waitFor();
      assert.equal(
        await connection.getByRole('button', { name: 'Turn on Partner IdP' }).getAttribute('aria-disabled'),
        'true',
      );
      await screenshot(tab, SHOTS, 'test-failed-domain');
      assert.deepEqual(await problems(), []);
    });
  });
});
