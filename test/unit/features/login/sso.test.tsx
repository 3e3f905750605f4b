import { expect } from 'chai';
import { fireEvent, waitFor } from '@testing-library/react';
import { setDomainSignIn } from '../../../../src/api/domains';
import '../../../../src/index';
import { SignInScreen } from '../../../../src/features/login/signin-screen';
import { sessionStore } from '../../../../src/state/session';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { ssoSetup } from '../../sso-setup';
import { logoutEverywhere, mount, screenOf, serverReady } from '../../support';

// The sign-in screen against the real server, for acme with a fresh domain of its own that signs in
// through a connection (made and turned on through the API first). Its own file: the page keeps team
// details once loaded, and these must be loaded after the domain is routed.
before(serverReady);

/** One routed domain for the file: the page keeps acme's details as first loaded. */
let routed: Awaited<ReturnType<typeof ssoSetup>>;
before(async () => {
  routed = await ssoSetup();
  await logoutEverywhere();
});

describe('signing in through single sign-on (component)', () => {
  it('an address at the domain goes there: no password, the reason said at the field; axe-clean', async () => {
    const { domain } = routed;
    const { view, container } = await renderWithElement(<SignInScreen team="acme" afterSignIn="event" />, {
      route: '/login/acme',
    });
    const email = await view.findByRole('textbox', { name: 'Email' });
    expect(view.getByLabelText('Password')).to.exist;
    fireEvent.change(email, { target: { value: `grace@${domain.toUpperCase()}` } });
    expect(view.queryByLabelText('Password')).to.equal(null);
    expect(
      view.getByRole('textbox', {
        name: 'Email',
        description: `Addresses at ${domain} sign in through your company’s single sign-on.`,
      }),
    ).to.exist;
    expect(view.getByRole('button', { name: 'Continue with single sign-on' })).to.exist;
    await expectNoAxeViolations(container);

    // Not required: the password is one click away, and takes the focus.
    fireEvent.click(view.getByRole('button', { name: 'Sign in with a password instead' }));
    const password = await view.findByLabelText('Password');
    await waitFor(() =>
      expect((password.getRootNode() as ShadowRoot).activeElement === password).to.equal(true),
    );
    expect(view.getByRole('button', { name: 'Continue' })).to.exist;
    // Another domain: the usual form.
    fireEvent.change(email, { target: { value: 'grace@elsewhere.example' } });
    expect(view.queryByRole('button', { name: 'Continue with single sign-on' })).to.equal(null);
  });

  it('the team step takes a work e-mail and opens its team’s sign-in with the address filled in', async () => {
    const { domain } = routed;
    const element = mount('<acct-login></acct-login>');
    const view = await screenOf(element);
    const field = await view.findByLabelText('Team name');
    fireEvent.change(field, { target: { value: 'nobody@unrouted.example' } });
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(await view.findByText(/^No team signs in with single sign-on at this address’s domain/)).to.exist;
    fireEvent.change(field, { target: { value: `grace@${domain}` } });
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(await view.findByRole('button', { name: 'Continue with single sign-on' })).to.exist;
    expect(view.getByRole('textbox', { name: 'Email' })).to.have.property('value', `grace@${domain}`);
    element.remove();
  });

  it('a domain that requires it offers the password to the team’s owners only, in words', async () => {
    const { domain, connection } = await ssoSetup();
    await sessionStore
      .getState()
      .authorized((ctx) => setDomainSignIn(ctx, domain, { connectionId: connection.id, requireSso: true }));
    await logoutEverywhere();
    // Another spelling of the team: details loaded afresh, with the domain now required.
    const { view } = await renderWithElement(<SignInScreen team="Acme" afterSignIn="event" />, {
      route: '/login/acme?Error=SeatLimit',
    });
    expect(await view.findByText(/Your team has no free seat for a new member/)).to.exist;
    fireEvent.change(await view.findByRole('textbox', { name: 'Email' }), {
      target: { value: `grace@${domain}` },
    });
    expect(view.queryByRole('button', { name: 'Sign in with a password instead' })).to.equal(null);
    expect(view.getByRole('button', { name: 'Team owner? Sign in with your password' })).to.exist;
  });
});
