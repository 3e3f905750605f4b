import { expect } from 'chai';
import { fireEvent, waitFor } from '@testing-library/dom';
import '../../../../src/index';
import { readCookie } from '../../../../src/api/client';
import { sessionStore } from '../../../../src/state/session';
import {
  logoutEverywhere,
  mount,
  screenOf as screen,
  submittedFields,
  watchFor,
  serverReady,
} from '../../support';

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
    const describedBy = field.getAttribute('aria-describedby')!;
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
    expect(email.autocomplete).to.equal('username');
    expect((view.getByLabelText('Password') as HTMLInputElement).autocomplete).to.equal('current-password');
    for (const name of ['Sign in with Google', 'Sign in with Microsoft', 'Sign in with Acme SSO']) {
      const button = view.getByRole('button', { name });
      const form = button.closest('form')!;
      expect(form.method).to.equal('post');
      expect(new URL(form.action).pathname).to.match(/^\/account\/(google|azure|auth0)$/);
      const fields = Object.fromEntries(new FormData(form));
      expect(Object.keys(fields).sort()).to.deep.equal([
        '__RequestVerificationToken',
        'maxAge',
        'returnUrl',
        'teamName',
      ]);
      expect(fields.teamName).to.equal('acme');
    }
    expect(view.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).to.equal(
      '/login/acme/forgotPassword',
    );
  });

  it("fills a provider form's anti-forgery field when it is sent, from the cookie as it is then", async () => {
    const previous = readCookie(document.cookie, 'XSRF-TOKEN');
    document.cookie = 'XSRF-TOKEN=before-render; path=/';
    try {
      const view = await screen(mount('<acct-login team="acme"></acct-login>'));
      const button = (await view.findByRole('button', { name: 'Sign in with Google' })) as HTMLButtonElement;
      const form = button.form!;
      // Rendering reads no cookie: the field is empty until the form is sent.
      expect((form.elements.namedItem('__RequestVerificationToken') as HTMLInputElement).value).to.equal('');
      // The cookie rotates (a sign-in in another tab); the form sends the new value.
      document.cookie = 'XSRF-TOKEN=rotated; path=/';
      const fields = submittedFields(form, button);
      expect(fields.__RequestVerificationToken).to.equal('rotated');
      expect(fields.teamName).to.equal('acme');
    } finally {
      document.cookie =
        previous === null
          ? 'XSRF-TOKEN=; path=/; max-age=0'
          : `XSRF-TOKEN=${encodeURIComponent(previous)}; path=/`;
    }
  });

  it('shows only the local form for globex and only Microsoft for umbrella', async () => {
    const globex = await screen(mount('<acct-login team="globex"></acct-login>'));
    await globex.findByLabelText('Email');
    expect(globex.queryByRole('button', { name: /Sign in with/ })).to.equal(null);
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
    const busy = watchFor(
      root,
      () => fieldset.disabled && root.querySelector('.overlay[role="status"]')?.textContent === 'Signing in…',
    );
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect((await view.findByRole('alert', {}, HASHING)).textContent).to.equal(
      'The email or password is incorrect.',
    );
    busy.stop();
    expect(busy.seen(), 'disabled under the overlay while signing in').to.equal(true);
    expect(fieldset.disabled).to.equal(false);
    expect(view.queryByText('Signing in…')).to.equal(null);
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
    expect(await view.findByText('You are signed in as carol@globex.test.', {}, HASHING)).to.exist;
    expect(events).to.deep.equal([{ team: 'globex', email: 'carol@globex.test' }]);
    expect(location.href).to.equal(before);
    expect(sessionStore.getState().user?.name).to.equal('Carol Diaz');
  });

  it('says when the team in the path does not exist', async () => {
    const view = await screen(mount('<acct-login team="nobody"></acct-login>'));
    expect((await view.findByRole('alert')).textContent).to.equal(
      'We cannot find that team. Check the name and try again.',
    );
    expect(view.getByRole('link', { name: 'Use a different team' })).to.exist;
  });
});
