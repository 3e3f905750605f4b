import { expect } from 'chai';
import { fireEvent } from '@testing-library/react';
import { ForgotScreen } from '../../../../src/features/login/forgot-screen';
import { ResetScreen } from '../../../../src/features/login/reset-screen';
import { SignInScreen } from '../../../../src/features/login/signin-screen';
import { TeamScreen } from '../../../../src/features/login/team-screen';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { serverReady } from '../../support';

// The teams' details come from the real server (seeded: acme has a password and three providers,
// umbrella only Microsoft).
before(serverReady);

/** The login screens (spec §2), each as a component test with one axe check. */
describe('login screens (component)', () => {
  it('team entry: a named, required team field and Continue; its error tied to the field; axe-clean', async () => {
    const { view, container } = await renderWithElement(<TeamScreen />, { route: '/login/team' });
    expect(view.getByRole('heading', { level: 1, name: 'Sign in to your team' })).to.exist;
    const field = view.getByRole('textbox', { name: 'Team name' });
    fireEvent.input(field, { target: { value: '' } });
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    // The error is the field's description, and marks it invalid.
    await view.findByRole('textbox', {
      name: 'Team name',
      description: /^Enter your team name\. Or your work/,
    });
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    await expectNoAxeViolations(container);
  });

  it('sign-in: the team’s providers, the e-mail and password form and its links; axe-clean', async () => {
    const { view, container } = await renderWithElement(<SignInScreen team="acme" afterSignIn="event" />, {
      route: '/login/acme',
    });
    expect(await view.findByRole('heading', { level: 1, name: /^Sign in to / })).to.exist;
    for (const name of ['Sign in with Google', 'Sign in with Microsoft', 'Sign in with Acme SSO'])
      expect(view.getByRole('button', { name }), name).to.exist;
    expect(view.getByRole('separator')).to.exist;
    expect(view.getByRole('textbox', { name: 'Email' })).to.exist;
    expect(view.getByLabelText('Password')).to.have.property('type', 'password');
    expect(view.getByRole('button', { name: 'Continue' })).to.exist;
    expect(view.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).to.equal(
      '/login/acme/forgotPassword',
    );
    expect(view.getByRole('link', { name: 'Use a different team' }).getAttribute('href')).to.equal(
      '/login/team',
    );
    await expectNoAxeViolations(container);
  });

  it('sign-in: an app’s login_hint pre-fills the e-mail, still editable; it and max_age survive changing team', async () => {
    const { view } = await renderWithElement(<SignInScreen team="acme" afterSignIn="event" />, {
      route: '/login/acme?ReturnUrl=%2Foidc%2Finteraction%2Fabc&login_hint=ada%40acme.test&max_age=0',
    });
    const email = await view.findByRole('textbox', { name: 'Email' });
    expect(email).to.have.property('value', 'ada@acme.test');
    fireEvent.input(email, { target: { value: 'bob@acme.test' } });
    expect(email).to.have.property('value', 'bob@acme.test');
    expect(view.getByRole('link', { name: 'Use a different team' }).getAttribute('href')).to.equal(
      '/login/team?ReturnUrl=%2Foidc%2Finteraction%2Fabc&login_hint=ada%40acme.test&max_age=0',
    );
  });

  it('forgot password: the e-mail field, the submit button and the way back; axe-clean', async () => {
    const { view, container } = await renderWithElement(<ForgotScreen team="acme" />, {
      route: '/login/acme/forgotPassword',
    });
    expect(await view.findByRole('heading', { level: 1, name: 'Forgot your password?' })).to.exist;
    expect(view.getByRole('textbox', { name: 'Email' })).to.exist;
    expect(view.getByRole('button', { name: 'Get reset link' })).to.exist;
    expect(view.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).to.equal('/login/acme/');
    await expectNoAxeViolations(container);
  });

  it('reset password: the two named password fields and the submit button; axe-clean', async () => {
    const { view, container } = await renderWithElement(<ResetScreen team="acme" />, {
      route: '/login/acme/resetPassword?id=someone&token=secret',
    });
    expect(await view.findByRole('heading', { level: 1, name: 'Choose a new password' })).to.exist;
    expect(view.getByLabelText('New password')).to.have.property('type', 'password');
    expect(view.getByLabelText('Confirm new password')).to.have.property('type', 'password');
    expect(view.getByRole('button', { name: 'Reset password' })).to.exist;
    await expectNoAxeViolations(container);
  });

  it('provider only: no password to recover, said in a status, and the way back; axe-clean', async () => {
    const { view, container } = await renderWithElement(<ForgotScreen team="umbrella" />, {
      route: '/login/umbrella/forgotPassword',
    });
    expect(await view.findByRole('heading', { level: 1, name: 'Forgot your password?' })).to.exist;
    expect(view.getByRole('status').textContent).to.match(/signs in with its identity provider/);
    expect(view.queryByRole('textbox')).to.equal(null);
    expect(view.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).to.equal(
      '/login/umbrella/',
    );
    await expectNoAxeViolations(container);
  });
});
