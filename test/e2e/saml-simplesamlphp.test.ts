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
import { screenshot, useE2E } from '../support/browser';
import { row, samlAdmin } from '../support/saml-connection';
import { IDP_USERS, useSimpleSamlPhp } from '../support/simplesamlphp';

const e2e = useE2E();
const simplesamlphp = useSimpleSamlPhp();
const { withPage } = e2e;
const SHOTS = 'e2e/saml-simplesamlphp';
const { setUp, testSignIn, turnOn } = samlAdmin(e2e, simplesamlphp, SHOTS);

describe('a SAML connection with SimpleSAMLphp', () => {
  it('is set up, tested through SimpleSAMLphp’s login page with the claims shown, and turned on', async () => {
    await withPage(async ({ page }, context) => {
      await setUp(page, 'SimpleSAMLphp');
      const dana = IDP_USERS.dana;
      const { tab, problems } = await testSignIn(page, context, 'SimpleSAMLphp', dana, 'simplesamlphp-login');
      const connection = row(tab, 'SimpleSAMLphp');
      await connection.getByText(/^The last test passed on .+\. Your provider sent:$/).waitFor();
      const fact = (label: string) =>
        // The claims received, right after the result's sentence (the row lists other facts too).
        connection.locator('[data-test-result] + dl.member-facts div', { hasText: label }).locator('dd');
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

      await turnOn(tab, 'SimpleSAMLphp');
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
