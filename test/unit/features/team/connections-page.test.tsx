import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/react';
import ConnectionsPage from '../../../../src/features/team/connections-page';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { lastNotice, logoutEverywhere, serverReady, signInAs } from '../../support';

// The screen against the real server, with a real SAML identity provider (samlify's, run by the test
// server: /__test/saml-idp) answering the test sign-in, its answer posted back to the ACS URL as the
// provider's page would.

before(serverReady);
afterEach(logoutEverywhere);

type View = Awaited<ReturnType<typeof renderWithElement>>['view'];

async function screen(route = '/manage/team/connections') {
  await signInAs('ada@acme.test');
  const rendered = await renderWithElement(<ConnectionsPage />, { route });
  await rendered.view.findByRole('region', { name: 'Single sign-on' });
  await waitFor(() => expect(rendered.view.queryByRole('status')).to.equal(null));
  return rendered;
}

const rowOf = (view: View, name: string) =>
  within(view.getByText(name, { selector: '.member-name' }).closest('li')!);

async function addConnection(view: View, name: string) {
  fireEvent.click(view.getByRole('button', { name: 'Add a connection' }));
  const dialog = within(await view.findByRole('dialog', { name: 'Add a connection' }));
  fireEvent.click(dialog.getByRole('radio', { name: /^Okta/ }));
  fireEvent.change(dialog.getByRole('textbox', { name: 'Name' }), { target: { value: name } });
  fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
  await waitFor(() => expect(view.queryByRole('dialog', { name: 'Add a connection' })).to.equal(null));
  return rowOf(view, name);
}

/** The dialog of a connection's provider details, opened from its row. */
async function detailsDialog(view: View, name: string) {
  fireEvent.click(
    rowOf(view, name).getByRole('button', { name: `Enter the provider’s details for ${name}` }),
  );
  return within(await view.findByRole('dialog', { name: `Provider’s details for ${name}` }));
}

async function enterDetails(view: View, name: string) {
  const idp = (await (await fetch('/__test/saml-idp')).json()) as {
    entityId: string;
    ssoUrl: string;
    certificate: string;
  };
  const dialog = await detailsDialog(view, name);
  fireEvent.change(dialog.getByRole('textbox', { name: /^Identity Provider Issuer/ }), {
    target: { value: idp.entityId },
  });
  fireEvent.change(dialog.getByRole('textbox', { name: 'Identity Provider Single Sign-On URL' }), {
    target: { value: idp.ssoUrl },
  });
  fireEvent.change(dialog.getByRole('textbox', { name: 'Signing certificate' }), {
    target: { value: idp.certificate },
  });
  fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
}

/** The test sign-in: the screen opens the provider's page; the provider answers to the ACS URL. */
async function testSignIn(view: View, name: string, email: string): Promise<string> {
  const opened: string[] = [];
  const open = window.open;
  window.open = (url?: string | URL) => {
    opened.push(String(url));
    return null;
  };
  try {
    fireEvent.click(rowOf(view, name).getByRole('button', { name: `Test ${name}` }));
    await waitFor(() => expect(opened).to.have.length(1));
  } finally {
    window.open = open;
  }
  const query = new URLSearchParams({ url: opened[0]!, email });
  const answer = (await (await fetch(`/__test/saml-idp?${query.toString()}`)).json()) as Record<
    string,
    string
  >;
  const posted = await fetch(new URL(answer.action!).pathname, {
    method: 'POST',
    body: new URLSearchParams({ SAMLResponse: answer.SAMLResponse!, RelayState: answer.RelayState! }),
    redirect: 'manual',
  });
  expect(posted.type).to.equal('opaqueredirect');
  return new URL(opened[0]!).searchParams.get('RelayState')!;
}

describe('the single sign-on screen (component)', () => {
  it('adds a connection: this site’s values to copy, then the provider’s details; nothing to test before', async () => {
    const name = `Okta ${crypto.randomUUID().slice(0, 6)}`;
    const { view, container } = await screen();
    fireEvent.click(view.getByRole('button', { name: 'Add a connection' }));
    const dialog = within(await view.findByRole('dialog', { name: 'Add a connection' }));
    expect(dialog.getByText(/create an app integration with SAML 2\.0/)).to.exist;
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    expect(dialog.getByText('Enter a name for the connection.')).to.exist;
    await expectNoAxeViolations(container);
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));

    const row = await addConnection(view, name);
    expect(lastNotice()).to.match(/is added\. Give your provider this site’s values/);
    expect(row.getByText(/^https?:\/\/.+\/saml\/[0-9a-f-]+\/acs$/)).to.exist;
    expect(row.getByRole('button', { name: `Copy the ACS URL (Reply URL) of ${name}` })).to.exist;
    expect(row.getByText('Not entered yet. Enter them to test the connection.')).to.exist;
    expect(row.getByRole('button', { name: `Test ${name}` }).getAttribute('aria-disabled')).to.equal('true');
    expect(row.getByRole('button', { name: `Turn on ${name}` }).getAttribute('aria-disabled')).to.equal(
      'true',
    );
    await expectNoAxeViolations(container);
  });

  it('the provider’s details: problems at their fields, the server’s certificate refusal too', async () => {
    const name = `Okta ${crypto.randomUUID().slice(0, 6)}`;
    const { view, container } = await screen();
    await addConnection(view, name);
    const dialog = await detailsDialog(view, name);
    const url = dialog.getByRole('textbox', {
      name: 'Identity Provider Single Sign-On URL',
    }) as HTMLInputElement;
    fireEvent.change(url, { target: { value: 'http://idp.example/sso' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(url.getAttribute('aria-invalid')).to.equal('true');
    expect(dialog.getByText('Use https. Plain http is only for localhost.')).to.exist;
    expect(dialog.getAllByText('Fill in this field.')).to.have.length(2);

    fireEvent.change(dialog.getByRole('textbox', { name: /^Identity Provider Issuer/ }), {
      target: { value: 'https://idp.example/metadata' },
    });
    fireEvent.change(url, { target: { value: 'https://idp.example/sso' } });
    const certificate = dialog.getByRole('textbox', { name: 'Signing certificate' });
    fireEvent.change(certificate, { target: { value: 'MIIBnotacertificate' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await dialog.findByText('This is not an X.509 certificate. Paste it whole, as PEM or Base64.');
    await waitFor(() =>
      expect((certificate.getRootNode() as ShadowRoot).activeElement === certificate).to.equal(true),
    );
    expect(url.value).to.equal('https://idp.example/sso');
    await expectNoAxeViolations(container);
  });

  it('the provider’s details from its metadata: refusals at their field, then read and refreshed', async () => {
    const name = `Okta ${crypto.randomUUID().slice(0, 6)}`;
    const { view, container } = await screen();
    await addConnection(view, name);
    const dialog = await detailsDialog(view, name);
    fireEvent.click(dialog.getByRole('radio', { name: /^Metadata URL/ }));
    const url = dialog.getByRole('textbox', { name: 'Metadata URL' }) as HTMLInputElement;
    const missing = `${location.origin}/__test/saml-idp/no-metadata-here`;
    fireEvent.change(url, { target: { value: missing } });
    fireEvent.click(dialog.getByRole('button', { name: 'Read metadata' }));
    await dialog.findByText('Your provider’s server answered with an error. Check the address.');
    expect(url.getAttribute('aria-invalid')).to.equal('true');
    expect(url.value).to.equal(missing, 'what was typed stays');
    await waitFor(() => expect((url.getRootNode() as ShadowRoot).activeElement === url).to.equal(true));
    await expectNoAxeViolations(container);

    // Pasted metadata is read by the server too: its refusal shows at the text, the address is kept.
    fireEvent.click(dialog.getByRole('radio', { name: /^Metadata XML/ }));
    const xml = dialog.getByRole('textbox', { name: 'Metadata XML' });
    fireEvent.change(xml, { target: { value: '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Read metadata' }));
    await dialog.findByText(/^Metadata with a document type declaration \(DOCTYPE\) is not accepted\./);
    expect(xml.getAttribute('aria-invalid')).to.equal('true');
    fireEvent.click(dialog.getByRole('radio', { name: /^Metadata URL/ }));
    const again = dialog.getByRole('textbox', { name: 'Metadata URL' }) as HTMLInputElement;
    expect(again.value).to.equal(missing);

    const address = `${location.origin}/__test/saml-idp/metadata`;
    fireEvent.change(again, { target: { value: address } });
    fireEvent.click(dialog.getByRole('button', { name: 'Read metadata' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    const row = rowOf(view, name);
    expect(row.getByText(address)).to.exist;
    expect(row.getByText('https://idp.example/sso')).to.exist;
    expect(row.getByText(/^CN=Test IdP, expires on .+: add the next certificate soon$/)).to.exist;
    fireEvent.click(
      row.getByRole('button', { name: `Refresh the provider’s details of ${name} from its metadata` }),
    );
    await waitFor(() =>
      expect(lastNotice()).to.equal(`The provider’s details of ${name} are refreshed from its metadata`),
    );
    await expectNoAxeViolations(container);
  });

  it('tests with the provider, comes back to what it sent, and turns on', async () => {
    const name = `Okta ${crypto.randomUUID().slice(0, 6)}`;
    const first = await screen();
    await addConnection(first.view, name);
    await enterDetails(first.view, name);
    expect(rowOf(first.view, name).getByText(/^CN=Test IdP, expires on .+: add the next certificate soon$/))
      .to.exist;
    await testSignIn(first.view, name, 'ada@acme.test');
    const id = new URL(rowOf(first.view, name).getByText(/\/acs$/).textContent!).pathname.split('/')[2]!;
    // Back in the tab the test started from, the result shows there too.
    document.dispatchEvent(new Event('visibilitychange'));
    await rowOf(first.view, name).findByText(/^The last test passed on /);

    // The provider's answer sent the new tab back here, to this connection's result.
    const { view } = await screen(`/manage/team/connections?test=${id}`);
    const row = rowOf(view, name);
    const passed = row.getByText(/^The last test passed on .+\. Your provider sent:$/);
    await waitFor(() => expect((passed.getRootNode() as ShadowRoot).activeElement === passed).to.equal(true));
    expect(row.getByText('ada@acme.test')).to.exist;
    fireEvent.click(row.getByRole('button', { name: `Turn on ${name}` }));
    await row.findByText('On');
    expect(lastNotice()).to.equal(`${name} is on`);
  });

  it('a failed test says exactly why', async () => {
    const name = `Okta ${crypto.randomUUID().slice(0, 6)}`;
    const first = await screen();
    await addConnection(first.view, name);
    await enterDetails(first.view, name);
    await testSignIn(first.view, name, 'eve@evil.example');
    const { view, container } = await screen();
    const row = rowOf(view, name);
    expect(
      row.getByText(
        /^The last test failed on .+\. The e-mail address is not at one of your team’s verified domains\.$/,
      ),
    ).to.exist;
    expect(row.getByRole('button', { name: `Turn on ${name}` }).getAttribute('aria-disabled')).to.equal(
      'true',
    );
    await expectNoAxeViolations(container);
  });

  it('an OpenID Connect connection: its redirect URI, the issuer refused at its field, the secret kept', async () => {
    const name = `OIDC ${crypto.randomUUID().slice(0, 6)}`;
    const { view, container } = await screen();
    fireEvent.click(view.getByRole('button', { name: 'Add a connection' }));
    const add = within(await view.findByRole('dialog', { name: 'Add a connection' }));
    fireEvent.click(add.getByRole('radio', { name: 'Any OpenID Connect provider' }));
    fireEvent.change(add.getByRole('textbox', { name: 'Name' }), { target: { value: name } });
    fireEvent.click(add.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    const row = rowOf(view, name);
    expect(row.getByText(/\/sso\/callback$/)).to.exist;
    expect(row.getByRole('button', { name: `Copy the Redirect URI of ${name}` })).to.exist;
    expect(row.queryByText('ACS URL (Reply URL)')).to.equal(null);

    const dialog = await detailsDialog(view, name);
    const issuer = dialog.getByRole('textbox', { name: 'Issuer' });
    fireEvent.change(issuer, { target: { value: 'http://idp.example' } });
    fireEvent.change(dialog.getByRole('textbox', { name: 'Client ID' }), { target: { value: 'portal' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    // No secret yet: asked for before any call.
    await waitFor(() =>
      expect(dialog.getByLabelText('Client secret').getAttribute('aria-invalid')).to.equal('true'),
    );
    fireEvent.change(dialog.getByLabelText('Client secret'), { target: { value: 's3cret' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(issuer.getAttribute('aria-invalid')).to.equal('true'));
    expect(dialog.getByText('Use https. Plain http is only for localhost.')).to.exist;
    await expectNoAxeViolations(container);
    fireEvent.change(issuer, { target: { value: 'https://idp.example' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    const saved = rowOf(view, name);
    expect(saved.getByText('https://idp.example')).to.exist;
    expect(saved.getByText('Saved (never shown again)')).to.exist;
    expect(saved.getByRole('button', { name: `Test ${name}` }).getAttribute('aria-disabled')).to.equal(null);
  });

  it('what the provider sends: the attribute names, the e-mail required, the NameID in words', async () => {
    const name = `Okta ${crypto.randomUUID().slice(0, 6)}`;
    const { view, container } = await screen();
    const row = await addConnection(view, name);
    expect(row.getByText('firstName')).to.exist;
    fireEvent.click(row.getByRole('button', { name: `Change where ${name}’s information is read` }));
    const dialog = within(await view.findByRole('dialog', { name: `What ${name} sends` }));
    const email = dialog.getByRole('textbox', { name: 'E-mail address' });
    fireEvent.change(email, { target: { value: ' ' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(email.getAttribute('aria-invalid')).to.equal('true'));
    await expectNoAxeViolations(container);
    fireEvent.change(email, { target: { value: 'nameid' } });
    fireEvent.change(dialog.getByRole('textbox', { name: 'Groups' }), { target: { value: 'memberOf' } });
    fireEvent.change(dialog.getByRole('textbox', { name: 'Last name' }), { target: { value: '' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(lastNotice()).to.equal(`What ${name} sends is saved`));
    const saved = rowOf(view, name);
    expect(saved.getByText('memberOf')).to.exist;
    expect(saved.getAllByText('NameID')).to.have.length(2, 'the e-mail and the stable id');
    expect(saved.getByText('Not read')).to.exist;
  });

  it('sign-in options: answers started at the provider, and what new members get; saved', async () => {
    const name = `Okta ${crypto.randomUUID().slice(0, 6)}`;
    const { view, container } = await screen();
    const row = await addConnection(view, name);
    const unasked = row.getByRole('checkbox', { name: /^Accept sign-ins started at the provider/ });
    const save = row.getByRole('button', { name: `Save the sign-in options of ${name}` });
    expect(save.getAttribute('aria-disabled')).to.equal('true', 'nothing to save yet');
    // Ownership is never given to whoever signs in.
    expect(row.queryByRole('checkbox', { name: 'Owner' })).to.equal(null);
    fireEvent.click(unasked);
    fireEvent.click(row.getByRole('checkbox', { name: 'Editor' }));
    await expectNoAxeViolations(container);
    fireEvent.click(save);
    await waitFor(() => expect(lastNotice()).to.equal(`Options of ${name} saved`));
    const again = rowOf((await screen()).view, name);
    expect((again.getByRole('checkbox', { name: 'Editor' }) as HTMLInputElement).checked).to.equal(true);
    expect(
      (again.getByRole('checkbox', { name: /^Accept sign-ins started at the provider/ }) as HTMLInputElement)
        .checked,
    ).to.equal(true);
  });

  it('a member who is no admin is refused, with no way to add', async () => {
    await signInAs('bob@acme.test');
    const { view } = await renderWithElement(<ConnectionsPage />, { route: '/manage/team/connections' });
    await view.findByText(/owners and administrators/);
    expect(view.queryByRole('button', { name: 'Add a connection' })).to.equal(null);
  });
});
