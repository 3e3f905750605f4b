import { expect } from 'chai';
import { fireEvent, waitFor } from '@testing-library/react';
import SignUpScreen from '../../../../src/features/login/signup-screen';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady } from '../../support';

// Against the real server (sign-up is open in its demo configuration); a mailed link is made through the
// harness (`/__test/signup-link`), as the code's own journey is followed in Chromium by the e2e test.
before(serverReady);
beforeEach(logoutEverywhere);

let serial = 0;
const fresh = () => {
  serial++;
  const stamp = `${Date.now().toString(36)}${serial}`;
  return { email: `unit-${stamp}@startup.test`, address: `unit-${stamp}` };
};

describe('<SignUpScreen> (start a team)', () => {
  it('suggests the address from the name and says while typing whether it is free; axe-clean', async () => {
    const { view, container } = await renderWithElement(<SignUpScreen />, { route: '/signup' });
    expect(await view.findByRole('heading', { level: 1, name: 'Start a team' })).to.exist;
    const teamName = view.getByRole('textbox', { name: 'Team name' });
    const address = view.getByRole('textbox', { name: 'Team address' }) as HTMLInputElement;
    await waitFor(() => expect((teamName.getRootNode() as ShadowRoot).activeElement).to.equal(teamName));

    const { address: free } = fresh();
    fireEvent.change(teamName, { target: { value: `Élan ${free}!` } });
    expect(address.value).to.equal(`elan-${free}`);
    expect(await view.findByText(new RegExp(`^This address is free: .*/login/elan-${free}$`))).to.exist;

    // Taken (the server says), reserved and malformed (the screen says at once).
    fireEvent.change(address, { target: { value: 'acme' } });
    expect(await view.findByText('A team already has this address. Choose another.')).to.exist;
    fireEvent.change(address, { target: { value: 'signup' } });
    expect(view.getByText('This address is reserved. Choose another.')).to.exist;
    fireEvent.change(address, { target: { value: 'a' } });
    expect(view.getByText(/^Use 3 to 40 lower-case letters/)).to.exist;
    // Typed by the person, the address no longer follows the name.
    fireEvent.change(teamName, { target: { value: 'Another name' } });
    expect(address.value).to.equal('a');
    await expectNoAxeViolations(container);
  });

  it('shows the team’s sign-in address as it reads, within a 320 px screen', async () => {
    const { view, container } = await renderWithElement(<SignUpScreen />, { route: '/signup' });
    (container.getRootNode() as ShadowRoot).host.setAttribute('style', 'display: block; width: 288px');
    const address = await view.findByRole('textbox', { name: 'Team address' });
    const fits = (hint: HTMLElement) => expect(hint.scrollWidth).to.be.at.most(hint.clientWidth);
    fits(await view.findByText(`Your team will sign in at ${location.origin}/login/…`));
    // The longest address there can be, with nowhere a line would break on its own.
    fireEvent.change(address, { target: { value: 'a'.repeat(40) } });
    fits(await view.findByText(`This address is free: ${location.origin}/login/${'a'.repeat(40)}`));
  });

  it('refuses missing details at their fields, then mails a code and asks for it', async () => {
    const { view } = await renderWithElement(<SignUpScreen />, { route: '/signup' });
    await view.findByRole('heading', { level: 1, name: 'Start a team' });
    fireEvent.click(view.getByRole('button', { name: 'Send code' }));
    expect(await view.findByRole('textbox', { name: 'Team name', description: 'Enter the team’s name.' })).to
      .exist;
    expect(view.getByRole('textbox', { name: 'Your name', description: 'Enter your name.' })).to.exist;
    expect(view.getByRole('textbox', { name: 'Work email' }).getAttribute('aria-invalid')).to.equal('true');

    const { email, address } = fresh();
    fireEvent.change(view.getByRole('textbox', { name: 'Team name' }), { target: { value: 'Rocket' } });
    fireEvent.change(view.getByRole('textbox', { name: 'Team address' }), { target: { value: address } });
    fireEvent.change(view.getByRole('textbox', { name: 'Your name' }), { target: { value: 'Nia' } });
    fireEvent.change(view.getByRole('textbox', { name: 'Work email' }), { target: { value: email } });
    fireEvent.click(view.getByRole('button', { name: 'Send code' }));
    expect(await view.findByRole('heading', { level: 1, name: 'Check your email' })).to.exist;
    expect(view.getByText(new RegExp(`^We sent a six-digit code to ${email}\\.`))).to.exist;
    const code = view.getByRole('textbox', { name: 'Code' });
    expect(code.getAttribute('autocomplete')).to.equal('one-time-code');
    fireEvent.change(code, { target: { value: '12' } });
    fireEvent.click(view.getByRole('button', { name: 'Confirm' }));
    expect(await view.findByRole('textbox', { description: 'Enter the six-digit code from the email.' })).to
      .exist;
    fireEvent.change(code, { target: { value: '000 000' } });
    fireEvent.click(view.getByRole('button', { name: 'Confirm' }));
    expect(await view.findByRole('textbox', { description: /^This code is not right or has expired/ })).to
      .exist;
    // Back to the details, as they were.
    fireEvent.click(view.getByRole('button', { name: 'Change the details' }));
    expect(await view.findByDisplayValue(email)).to.exist;
  });

  it('opens the mailed link at the password step and makes the team, signed in', async () => {
    const { email, address } = fresh();
    const link = (await (
      await fetch(`/__test/signup-link?${new URLSearchParams({ email, address })}`)
    ).json()) as { id: string; token: string };
    const { view, host, container } = await renderWithElement(<SignUpScreen />, {
      route: `/signup?${new URLSearchParams(link)}`,
    });
    expect(await view.findByRole('heading', { level: 1, name: 'Choose your password' })).to.exist;
    expect(view.getByText(`${email} is confirmed. Choose a password to finish creating Rocket Science.`)).to
      .exist;
    await expectNoAxeViolations(container);
    const signedIn = new Promise<CustomEvent>((resolve) =>
      host.addEventListener('acct-signed-in', (event) => resolve(event as CustomEvent), { once: true }),
    );
    fireEvent.click(view.getByRole('button', { name: 'Create the team' }));
    await waitFor(() =>
      expect(
        view.getByLabelText('New password', { selector: 'input' }).getAttribute('aria-invalid'),
      ).to.equal('true'),
    );
    fireEvent.change(view.getByLabelText('New password', { selector: 'input' }), {
      target: { value: 'a fine new passphrase' },
    });
    fireEvent.change(view.getByLabelText('Confirm new password', { selector: 'input' }), {
      target: { value: 'a fine new passphrase' },
    });
    fireEvent.click(view.getByRole('button', { name: 'Create the team' }));
    expect((await signedIn).detail).to.deep.equal({ team: address, email });

    // The link worked once.
    const again = await renderWithElement(<SignUpScreen />, {
      route: `/signup?${new URLSearchParams(link)}`,
    });
    expect(await again.view.findByRole('heading', { level: 1, name: 'This link no longer works' })).to.exist;
    fireEvent.click(again.view.getByRole('button', { name: 'Start again' }));
    expect(await again.view.findByRole('heading', { level: 1, name: 'Start a team' })).to.exist;
  });
});
