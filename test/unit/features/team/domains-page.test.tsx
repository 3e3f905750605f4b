import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/react';
import DomainsPage from '../../../../src/features/team/domains-page';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { ssoSetup } from '../../sso-setup';
import { lastNotice, logoutEverywhere, publishTxt, serverReady, signInAs } from '../../support';

before(serverReady);
afterEach(logoutEverywhere);

/** A domain no other test (or earlier run against the same server) has added. */
const fresh = () => `unit-${crypto.randomUUID().slice(0, 8)}.example`;

async function domainsScreen(email = 'ada@acme.test', language: 'en' | 'fr' = 'en') {
  await signInAs(email);
  const rendered = await renderWithElement(<DomainsPage />, { route: '/manage/team/domains', language });
  // The list is there (the add form checks against it).
  await rendered.view.findByRole('list', { name: language === 'en' ? 'Domains' : 'Domaines' });
  return rendered;
}

async function addDialog(view: Awaited<ReturnType<typeof domainsScreen>>['view']) {
  fireEvent.click(await view.findByRole('button', { name: 'Add a domain' }));
  const dialog = within(await view.findByRole('dialog', { name: 'Add a domain' }));
  return { dialog, input: dialog.getByRole('textbox', { name: 'Domain' }) as HTMLInputElement };
}

describe('the team domains screen (component)', () => {
  it('lists the team’s verified domain with its date and no record to publish; axe-clean', async () => {
    const { view, container } = await domainsScreen();
    const list = within(await view.findByRole('list', { name: 'Domains' }));
    const row = within(list.getByText('acme.test').closest('li')!);
    expect(row.getByText('Verified')).to.exist;
    expect(row.getByText(/^Verified on .+\. This site checks its record every day\.$/)).to.exist;
    expect(row.queryByRole('button', { name: 'Verify acme.test' })).to.equal(null);
    expect(row.getByRole('button', { name: 'Remove acme.test' })).to.exist;
    await expectNoAxeViolations(container);
  });

  it('add: problems at the field before any call and the server’s refusal there, the text kept', async () => {
    const { view, container } = await domainsScreen();
    const { dialog, input } = await addDialog(view);
    const problem = () => {
      const id = input.getAttribute('aria-describedby')!.split(' ')[0]!;
      return (input.getRootNode() as ShadowRoot).getElementById(id)?.textContent;
    };

    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(problem()).to.equal('Enter a domain.');
    expect((input.getRootNode() as ShadowRoot).activeElement === input).to.equal(true);

    fireEvent.change(input, { target: { value: 'https://acme.test/' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    expect(problem()).to.equal('Enter a domain name such as example.com, without https:// or an @.');

    // The team's own: told without asking.
    fireEvent.change(input, { target: { value: 'ACME.test' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    expect(problem()).to.equal('Your team has added this domain already.');

    // Only the server knows the public mail services.
    fireEvent.change(input, { target: { value: 'gmail.com' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(problem()).to.equal('This is a public e-mail service. Enter your company’s own domain.'),
    );
    expect(input.value).to.equal('gmail.com');
    // (Compared as a boolean: chai's message for two elements that differ takes the page down.)
    await waitFor(() => expect((input.getRootNode() as ShadowRoot).activeElement === input).to.equal(true));
    await expectNoAxeViolations(container);
  });

  it('add, publish the record shown, verify: not found first, then verified; remove after asking', async () => {
    const domain = fresh();
    const { view, container } = await domainsScreen();
    const { dialog, input } = await addDialog(view);
    fireEvent.change(input, { target: { value: domain.toUpperCase() } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(view.queryByRole('dialog', { name: 'Add a domain' })).to.equal(null));
    expect(lastNotice()).to.equal(`${domain} is added. Publish its record, then verify it.`);

    const row = within(view.getByText(domain).closest('li')!);
    expect(row.getByText('Waiting for verification')).to.exist;
    expect(row.getByText(/^Publish the record below, then verify the domain by /)).to.exist;
    const name = row.getByText(`_acct-challenge.${domain}`);
    const value = row.getByText(/^acct-verification=[0-9a-f]{32}$/);
    expect(row.getByRole('button', { name: `Copy the record name for ${domain}` })).to.exist;
    expect(row.getByRole('button', { name: `Copy the record value for ${domain}` })).to.exist;
    await expectNoAxeViolations(container);

    // Nothing published yet: the screen says the record was not found.
    fireEvent.click(row.getByRole('button', { name: `Verify ${domain}` }));
    await row.findByText(/^The record was not found\./);
    expect(lastNotice()).to.equal(`${domain} is not verified yet`);
    expect(row.getByText('Waiting for verification')).to.exist;

    await publishTxt(name.textContent!, value.textContent!);
    fireEvent.click(row.getByRole('button', { name: `Verify ${domain}` }));
    await row.findByText('Verified');
    expect(lastNotice()).to.equal(`${domain} is verified`);
    expect(row.queryByText(`_acct-challenge.${domain}`)).to.equal(null);
    // The Verify button went: focus stays on the domain's row.
    await waitFor(() =>
      expect((container.getRootNode() as ShadowRoot).activeElement?.textContent).to.equal(domain),
    );

    fireEvent.click(row.getByRole('button', { name: `Remove ${domain}` }));
    const ask = within(await view.findByRole('alertdialog', { name: `Remove ${domain}?` }));
    expect(ask.getByText(/Members keep their accounts\./)).to.exist;
    fireEvent.click(ask.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(view.queryByText(domain)).to.equal(null));
    expect(lastNotice()).to.equal(`${domain} is removed`);
  });

  it('a verified domain’s sign-in: a connection to choose, required only with one, saved; axe-clean', async () => {
    const { domain, connection } = await ssoSetup({ route: false });
    const { view, container } = await domainsScreen();
    const list = within(await view.findByRole('list', { name: 'Domains' }));
    const row = within(list.getByText(domain).closest('li')!);
    const select = (await row.findByRole('combobox', { name: 'Sign in through' })) as HTMLSelectElement;
    const required = row.getByRole('checkbox', { name: /^Require single sign-on/ }) as HTMLInputElement;
    expect(select.value).to.equal('');
    expect(required.disabled).to.equal(true);
    fireEvent.change(select, { target: { value: connection.id } });
    // Chosen, but not on yet: routing waits for it.
    expect(
      row.getByText(
        `${connection.name} is off: addresses at ${domain} sign in as before until you turn it on.`,
      ),
    ).to.exist;
    expect(required.disabled).to.equal(false);
    fireEvent.click(required);
    await expectNoAxeViolations(container);
    fireEvent.click(row.getByRole('button', { name: `Save sign-in for ${domain}` }));
    await waitFor(() => expect(lastNotice()).to.equal(`Sign-in for ${domain} saved`));
    expect(
      row.getByRole('button', { name: `Save sign-in for ${domain}` }).getAttribute('aria-disabled'),
    ).to.equal('true');
  });

  it('a member who is no admin is refused the screen, with no way to add', async () => {
    await signInAs('bob@acme.test');
    const { view } = await renderWithElement(<DomainsPage />, { route: '/manage/team/domains' });
    await view.findByText(/not an admin|administrator/i);
    expect(view.queryByRole('button', { name: 'Add a domain' })).to.equal(null);
  });

  it('speaks the interface’s language', async () => {
    const { view } = await domainsScreen('ada@acme.test', 'fr');
    expect(view.getByRole('button', { name: 'Ajouter un domaine' })).to.exist;
    // Other tests' verified domains may be listed too.
    expect(view.getAllByText('Vérifié')).to.not.be.empty;
    expect(await view.findAllByRole('combobox', { name: 'Se connecter via' })).to.not.be.empty;
  });
});
