import { expect } from 'chai';
import { fireEvent, waitFor } from '@testing-library/dom';
import '../../../../src/index';
import { sessionStore } from '../../../../src/state/session';
import { logoutEverywhere, mount, screenOf as screen, watchFor, serverReady } from '../../support';

// The first request of a run starts the identity server.
before(serverReady);

/** A sign-in hashes the password on purpose slowly; on a busy machine that takes more than 5 s. */
const HASHING = { timeout: 20000 };

describe('<acct-login>: team entry', () => {
  beforeEach(() => localStorage.removeItem('defaultTeam'));
  afterEach(() => document.body.replaceChildren());

  it('focuses the field and requires a team name', async () => {
    const element = mount('<acct-login></acct-login>');
    const view = await screen(element);
    const field = await view.findByLabelText('Team name');
    await waitFor(() => expect(element.shadowRoot!.activeElement).to.equal(field));
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(await view.findByText('Enter your team name.')).to.exist;
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    // The error first, then the hint.
    const describedBy = field.getAttribute('aria-describedby')!.split(' ')[0]!;
    expect(element.shadowRoot!.getElementById(describedBy)?.textContent).to.equal('Enter your team name.');
  });

  it('says when a team cannot be found or is not enabled', async () => {
    const view = await screen(mount('<acct-login></acct-login>'));
    const field = await view.findByLabelText('Team name');
    fireEvent.input(field, { target: { value: 'no-such-team' } });
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(await view.findByText('We cannot find that team. Check the name and try again.')).to.exist;
    fireEvent.input(field, { target: { value: 'initech' } });
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(await view.findByText('This team is not enabled.')).to.exist;
  });

  it('disables the form under a loading overlay while the lookup runs, then moves on and remembers the team', async () => {
    const element = mount('<acct-login></acct-login>');
    const view = await screen(element);
    const field = await view.findByLabelText('Team name');
    const busy = watchFor(
      element.shadowRoot!,
      () =>
        (field.closest('fieldset') as HTMLFieldSetElement).disabled &&
        !!field.closest('form')?.querySelector('.overlay[role="status"] .spinner'),
    );
    fireEvent.input(field, { target: { value: '  GloBex ' } });
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(await view.findByRole('heading', { name: 'Sign in to Globex' })).to.exist;
    busy.stop();
    expect(busy.seen(), 'disabled under the overlay while looking up').to.equal(true);
    expect(localStorage.getItem('defaultTeam')).to.equal('globex');
  });

  it('prefills the remembered team', async () => {
    localStorage.setItem('defaultTeam', 'acme');
    const view = await screen(mount('<acct-login></acct-login>'));
    expect(((await view.findByLabelText('Team name')) as HTMLInputElement).value).to.equal('acme');
  });

  it('offers Register only when a sign-up address is configured', async () => {
    const view = await screen(mount('<acct-login></acct-login>'));
    await view.findByLabelText('Team name');
    expect(view.queryByText('Register')).to.equal(null);
    expect(view.queryByRole('separator')).to.equal(null);
  });
});

describe('<acct-login>: sign-in', () => {
  afterEach(async () => {
    document.body.replaceChildren();
    await logoutEverywhere();
  });

  it("shows the team's providers, the local form with its autocomplete hints, and the forgot link", async () => {
    const view = await screen(mount('<acct-login team="acme"></acct-login>'));
    const email = (await view.findByLabelText('Email')) as HTMLInputElement;
    // The browser may offer passkeys in the field's autofill (conditional mediation).
    expect(email.autocomplete).to.equal('username webauthn');
    expect((view.getByLabelText('Password') as HTMLInputElement).autocomplete).to.equal('current-password');
    // Buttons, not forms: a form post's redirect to the provider would be blocked by an embedding page's
    // CSP form-action; choosing one asks the issuer where to go and navigates there.
    for (const name of ['Sign in with Google', 'Sign in with Microsoft', 'Sign in with Acme SSO']) {
      const button = view.getByRole('button', { name }) as HTMLButtonElement;
      expect(button.type).to.equal('button');
      expect(button.closest('form')).to.equal(null);
    }
    expect(view.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).to.equal(
      '/login/acme/forgotPassword',
    );
  });

  it('shows only the local form for globex and only Microsoft for umbrella', async () => {
    const globex = await screen(mount('<acct-login team="globex"></acct-login>'));
    await globex.findByLabelText('Email');
    // No provider: the passkey button is the only other way in.
    expect(globex.getAllByRole('button', { name: /Sign in with/ }).map((b) => b.textContent)).to.deep.equal([
      'Sign in with a passkey',
    ]);
    const umbrella = await screen(mount('<acct-login team="umbrella"></acct-login>'));
    expect(await umbrella.findByRole('button', { name: 'Sign in with Microsoft' })).to.exist;
    expect(umbrella.queryByLabelText('Email')).to.equal(null);
    expect(umbrella.queryByLabelText('Password')).to.equal(null);
  });

  it('requires both fields', async () => {
    const view = await screen(mount('<acct-login team="acme"></acct-login>'));
    await view.findByLabelText('Email');
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(await view.findByText('Enter your email address.')).to.exist;
    expect(view.getByText('Enter your password.')).to.exist;
  });

  it('disables the form while signing in and re-enables it on failure with the invalid-credentials message', async function () {
    this.timeout(45000);
    const view = await screen(mount('<acct-login team="acme"></acct-login>'));
    const email = await view.findByLabelText('Email');
    fireEvent.input(email, { target: { value: 'ada@acme.test' } });
    fireEvent.input(view.getByLabelText('Password'), { target: { value: 'not-it' } });
    const fieldset = email.closest('fieldset') as HTMLFieldSetElement;
    const root = email.getRootNode() as ShadowRoot;
    const linksInert = () =>
      ['Forgot your password?', 'Use a different team'].every((name) => {
        const link = view.getByText(name);
        return link.getAttribute('aria-disabled') === 'true' && !link.hasAttribute('href');
      });
    const busy = watchFor(
      root,
      () =>
        fieldset.disabled &&
        root.querySelector('.overlay[role="status"]')?.textContent === 'Signing in…' &&
        linksInert(),
    );
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect((await view.findByRole('alert', {}, HASHING)).textContent).to.equal(
      'The email or password is incorrect.',
    );
    busy.stop();
    expect(busy.seen(), 'disabled under the overlay, links too, while signing in').to.equal(true);
    expect(fieldset.disabled).to.equal(false);
    expect(view.queryByText('Signing in…')).to.equal(null);
    expect(linksInert()).to.equal(false);
    // Focus is where the user goes on from, not lost to the page's body.
    await waitFor(() => expect(root.activeElement).to.equal(view.getByLabelText('Password')));
  });

  it('shows the locked message for a locked account', async function () {
    this.timeout(45000);
    const view = await screen(mount('<acct-login team="acme"></acct-login>'));
    fireEvent.input(await view.findByLabelText('Email'), { target: { value: 'locked@acme.test' } });
    fireEvent.input(view.getByLabelText('Password'), { target: { value: 'portal-demo-pass' } });
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect((await view.findByRole('alert', {}, HASHING)).textContent).to.equal(
      'This account is locked. Try again later.',
    );
  });

  it('signs in, dispatches acct-signed-in, and shows who is signed in without navigating', async function () {
    this.timeout(45000);
    const element = mount('<acct-login team="globex"></acct-login>');
    const view = await screen(element);
    const events: unknown[] = [];
    element.addEventListener('acct-signed-in', (event) => events.push(event.detail));
    const before = location.href;
    fireEvent.input(await view.findByLabelText('Email'), { target: { value: 'Carol@Globex.test' } });
    fireEvent.input(view.getByLabelText('Password'), { target: { value: 'portal-demo-pass' } });
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    const signedIn = await view.findByText('You are signed in as carol@globex.test.', {}, HASHING);
    await waitFor(() => expect(element.shadowRoot!.activeElement).to.equal(signedIn));
    expect(events).to.deep.equal([{ team: 'globex', email: 'carol@globex.test' }]);
    expect(location.href).to.equal(before);
    expect(sessionStore.getState().user?.name).to.equal('Carol Diaz');
  });

  it('says when the team in the path does not exist, however long its name', async () => {
    for (const team of ['nobody', 'a'.repeat(500)]) {
      const view = await screen(mount(`<acct-login team="${team}"></acct-login>`));
      expect((await view.findByRole('alert')).textContent).to.equal(
        'We cannot find that team. Check the name and try again.',
      );
      expect(view.getByRole('link', { name: 'Use a different team' })).to.exist;
      document.body.replaceChildren();
    }
  });

  it('keeps the ReturnUrl on every step of the flow', async () => {
    const view = await screen(mount('<acct-login team="acme" return-url="/manage/qr"></acct-login>'));
    await view.findByLabelText('Email');
    for (const name of ['Use a different team', 'Forgot your password?']) {
      const href = view.getByRole('link', { name }).getAttribute('href')!;
      expect(new URL(href, location.origin).searchParams.get('ReturnUrl'), name).to.equal('/manage/qr');
    }
    fireEvent.click(view.getByRole('link', { name: 'Forgot your password?' }));
    const back = await view.findByRole('link', { name: 'Back to sign in' });
    expect(back.getAttribute('href')).to.equal('/login/acme/?ReturnUrl=%2Fmanage%2Fqr');
  });

  it('limits each field to what the server takes', async () => {
    const view = await screen(mount('<acct-login team="acme"></acct-login>'));
    expect(((await view.findByLabelText('Email')) as HTMLInputElement).maxLength).to.equal(320);
    expect((view.getByLabelText('Password') as HTMLInputElement).maxLength).to.equal(1024);
    const team = await screen(mount('<acct-login></acct-login>'));
    expect(((await team.findByLabelText('Team name')) as HTMLInputElement).maxLength).to.equal(100);
  });
});

describe('<acct-login>: forgot password', () => {
  afterEach(() => document.body.replaceChildren());

  it('refuses an address longer than the server takes at the field, without asking the server', async () => {
    const element = mount('<acct-login team="acme"></acct-login>');
    const view = await screen(element);
    fireEvent.click(await view.findByRole('link', { name: 'Forgot your password?' }));
    await view.findByRole('button', { name: 'Get reset link' });
    const field = view.getByLabelText('Email') as HTMLInputElement;
    expect(field.maxLength).to.equal(320);
    fireEvent.input(field, { target: { value: `${'a'.repeat(3000)}@acme.test` } });
    fireEvent.click(view.getByRole('button', { name: 'Get reset link' }));
    expect(await view.findByText('Enter a valid email address.')).to.exist;
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    expect(view.queryByRole('alert')).to.equal(null);
  });
});
