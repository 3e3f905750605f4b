import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/react';
import DirectoriesPage from '../../../../src/features/team/directories-page';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady, signInAs } from '../../support';

before(serverReady);
afterEach(logoutEverywhere);

const ROUTE = '/manage/team/directories';

/** Ada (an owner of acme) on the directory sync screen with the connect dialog open. */
async function connectDialog() {
  await signInAs('ada@acme.test');
  const { view, container } = await renderWithElement(<DirectoriesPage />, { route: ROUTE });
  await view.findByRole('region', { name: 'Connected directories' });
  fireEvent.click(await view.findByRole('button', { name: 'Connect a directory' }));
  const dialog = within(await view.findByRole('dialog', { name: 'Connect a directory' }));
  return { view, container, dialog };
}

/** Connect a directory named `name`; the token dialog that follows. */
async function connect(name: string, signIn: RegExp = /^Sign in with single sign-on/) {
  const { view, container, dialog } = await connectDialog();
  fireEvent.change(dialog.getByRole('textbox', { name: 'Name' }), { target: { value: name } });
  fireEvent.click(dialog.getByRole('radio', { name: signIn }));
  fireEvent.click(dialog.getByRole('button', { name: 'Connect' }));
  const shown = within(await view.findByRole('dialog', { name: `Connect ${name}` }));
  return { view, container, shown };
}

const valueOf = (dialog: ReturnType<typeof within>, name: string) =>
  (dialog.getByRole('textbox', { name }) as HTMLInputElement).value;

describe('the directory sync screen (component)', () => {
  it('connect: the name is checked before any call, focus on it; axe-clean', async () => {
    const { dialog, container } = await connectDialog();
    expect(dialog.getByRole('radio', { name: /^Sign in with single sign-on/ })).to.have.property(
      'checked',
      true,
    );
    expect(dialog.getByText(/get an invitation email to set their own password/)).to.exist;
    fireEvent.click(dialog.getByRole('button', { name: 'Connect' }));
    const name = dialog.getByRole('textbox', { name: 'Name' });
    expect(name.getAttribute('aria-invalid')).to.equal('true');
    expect(dialog.getByText('Enter a name for the directory.')).to.exist;
    await expectNoAxeViolations(container);
  });

  it('shows the SCIM address and the token once, then lists the directory with its setting', async () => {
    const name = `Unit Okta ${Date.now()}`;
    const { view, container, shown } = await connect(name, /^Set a password/);
    expect(valueOf(shown, 'SCIM base URL')).to.match(/\/scim\/v2$/);
    expect(valueOf(shown, 'Token')).to.match(/^acct_scim_[A-Za-z0-9_-]{43}$/);
    expect(shown.getByRole('button', { name: 'Copy URL' })).to.exist;
    expect(shown.getByRole('button', { name: 'Copy token' })).to.exist;
    expect(shown.getByText(/you won’t see it again/)).to.exist;
    await expectNoAxeViolations(container);
    fireEvent.click(shown.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(view.queryByRole('dialog', { name: `Connect ${name}` })).to.equal(null));

    const list = within(await view.findByRole('list', { name: 'Connected directories' }));
    const row = within(list.getByText(name).closest('li')!);
    expect(row.getByText('Set a password')).to.exist;
    expect(row.getByText('Never')).to.exist;
    expect(view.queryByText(/acct_scim_/)).to.equal(null, 'the token is not shown again');
  });

  it('a new token after confirming replaces the old one; disconnecting removes the row', async () => {
    const name = `Unit Entra ${Date.now()}`;
    const { view, shown } = await connect(name);
    const first = valueOf(shown, 'Token');
    fireEvent.click(shown.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(view.queryByRole('dialog', { name: `Connect ${name}` })).to.equal(null));

    fireEvent.click(view.getByRole('button', { name: `New token for ${name}` }));
    const ask = within(await view.findByRole('alertdialog', { name: `New token for ${name}?` }));
    fireEvent.click(ask.getByRole('button', { name: 'Make a new token' }));
    const again = within(await view.findByRole('dialog', { name: `Connect ${name}` }));
    const second = valueOf(again, 'Token');
    expect(second).to.match(/^acct_scim_/);
    expect(second).to.not.equal(first);
    fireEvent.click(again.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(view.queryByRole('dialog', { name: `Connect ${name}` })).to.equal(null));

    fireEvent.click(view.getByRole('button', { name: `Disconnect ${name}` }));
    const revoke = within(await view.findByRole('alertdialog', { name: `Disconnect ${name}?` }));
    expect(revoke.getByText(/The members and groups it added stay/)).to.exist;
    fireEvent.click(revoke.getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(view.queryByText(name)).to.equal(null));
  });

  it('tells a member who is no admin why, with nothing to act on', async () => {
    await signInAs('bob@acme.test');
    const { view } = await renderWithElement(<DirectoriesPage />, { route: ROUTE });
    await view.findByText(/not an admin|administrator/i);
    expect(view.queryByRole('button', { name: 'Connect a directory' })).to.equal(null);
  });

  it('speaks the member’s language', async () => {
    await signInAs('ada@acme.test');
    const { view } = await renderWithElement(<DirectoriesPage />, { route: ROUTE, language: 'fr' });
    expect(await view.findByRole('region', { name: 'Annuaires connectés' })).to.exist;
    expect(view.getByRole('button', { name: 'Connecter un annuaire' })).to.exist;
  });
});
