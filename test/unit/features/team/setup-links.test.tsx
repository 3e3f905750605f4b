import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/react';
import ConnectionsPage from '../../../../src/features/team/connections-page';
import SetupPage from '../../../../src/features/team/setup-page';
import { sessionStore } from '../../../../src/state/session';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { lastNotice, logoutEverywhere, serverReady, setupLinkFor, signInAs } from '../../support';

// Setup links against the real server: the owner's part of the Single sign-on screen, and the page the
// IT contact opens from the mailed link, which shows the team's screens with the link's token.

before(serverReady);
afterEach(logoutEverywhere);

const fresh = () => `it-${crypto.randomUUID().slice(0, 8)}@acme-it.example`;

describe('the owner’s setup links (Single sign-on screen)', () => {
  it('sends a link by e-mail, lists it, and revokes it after a confirmation; axe-clean', async () => {
    await signInAs('ada@acme.test');
    const { view, container } = await renderWithElement(<ConnectionsPage />, {
      route: '/manage/team/connections',
    });
    const region = within(await view.findByRole('region', { name: 'Setup links' }));
    await waitFor(() => expect(region.queryByRole('status')).to.equal(null));

    fireEvent.click(region.getByRole('button', { name: 'Invite your IT contact' }));
    const dialog = within(await view.findByRole('dialog', { name: 'Invite your IT contact' }));
    const input = dialog.getByRole('textbox', { name: 'Their email address' }) as HTMLInputElement;
    fireEvent.click(dialog.getByRole('button', { name: 'Send link' }));
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(dialog.getByText('Enter their email address.')).to.exist;
    await expectNoAxeViolations(container);

    const email = fresh();
    fireEvent.change(input, { target: { value: email } });
    fireEvent.click(dialog.getByRole('button', { name: 'Send link' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    expect(lastNotice()).to.equal(`Setup link sent to ${email}`);
    const row = within(region.getByText(email).closest('li')!);
    expect(row.getByText(/^Not opened yet, expires on /)).to.exist;

    fireEvent.click(row.getByRole('button', { name: `Revoke the setup link for ${email}` }));
    const question = within(await view.findByRole('alertdialog', { name: 'Revoke this setup link?' }));
    expect(question.getByText(new RegExp(`The link sent to ${email} stops working at once`))).to.exist;
    fireEvent.click(question.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(row.getByText(/^Revoked on /)).to.exist);
    await waitFor(() => expect(view.queryByRole('alertdialog')).to.equal(null));
    expect(lastNotice()).to.equal(`Setup link for ${email} revoked`);
    expect(row.queryByRole('button', { name: `Revoke the setup link for ${email}` })).to.equal(null);
    await expectNoAxeViolations(container);
  });

  it('is not shown to an admin who is not an owner', async () => {
    await signInAs('carol@globex.test');
    const { view } = await renderWithElement(<ConnectionsPage />, { route: '/manage/team/connections' });
    await view.findByRole('region', { name: 'Single sign-on' });
    await waitFor(() => expect(view.queryByRole('status')).to.equal(null));
    expect(view.queryByRole('region', { name: 'Setup links' })).to.equal(null);
  });
});

describe('the IT contact’s setup page (/setup/:token)', () => {
  it('opens the link and shows the team’s Domains and Single sign-on screens, without a session', async () => {
    const email = fresh();
    const token = await setupLinkFor(email);
    expect(sessionStore.getState().loggedIn).to.equal(false);
    const { view, container } = await renderWithElement(<SetupPage />, { route: `/setup/${token}` });
    // Text queries: the two screens together are too large a tree to ask by role at every change.
    const heading = await view.findByText('Set up single sign-on for Acme');
    expect(heading.tagName).to.equal('H1');
    expect(view.getByText(new RegExp(`asked you \\(${email}\\)`))).to.exist;
    // The Domains screen as it is, its list loaded with the link's token.
    const domain = await view.findByText('acme.test', { selector: '.member-name' });
    expect(domain.closest('ul')!.getAttribute('aria-labelledby')).to.equal('domains-title');
    expect(view.getByText('Add a domain', { selector: 'button' })).to.exist;
    expect(view.getByText('Single sign-on', { selector: 'h2' })).to.exist;
    await view.findByText('Add a connection', { selector: 'button' });
    expect(view.queryByText('Setup links')).to.equal(null);
    await waitFor(() => expect(container.querySelector('.loading')).to.equal(null));
    await expectNoAxeViolations(container);
  });

  it('says why a link no longer works and whom to ask for a new one', async () => {
    const { view, container } = await renderWithElement(<SetupPage />, { route: '/setup/not-a-real-token' });
    expect(await view.findByRole('heading', { level: 1, name: 'This setup link no longer works' })).to.exist;
    expect(view.getByText(/The link is not valid/)).to.exist;
    expect(view.getByText('Ask an owner of the team for a new setup link.')).to.exist;
    expect(view.queryByRole('list', { name: 'Domains' })).to.equal(null);
    await expectNoAxeViolations(container);
  });
});
