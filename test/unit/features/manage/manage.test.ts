import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/dom';
import '../../../../src/index';
import { logoutEverywhere, mount, rendered, screenOf, serverReady, signInAs } from '../../support';

async function openManage() {
  const element = mount('<acct-manage></acct-manage>');
  const view = await screenOf(element);
  await view.findByRole('heading', { name: 'Personal info' });
  return { element, view };
}

/** The open dialog's queries (it is inside the element's shadow root). */
async function dialog(element: HTMLElement) {
  await waitFor(() => expect(element.shadowRoot!.querySelector('dialog[open] form')).to.not.equal(null));
  return within(element.shadowRoot!.querySelector('dialog[open]') as HTMLElement);
}

const type = (input: HTMLElement, value: string) => fireEvent.input(input, { target: { value } });

describe('<acct-manage>', () => {
  before(serverReady);

  afterEach(async () => {
    document.body.replaceChildren();
    await logoutEverywhere();
  });

  it('asks a signed-out visitor to sign in', async () => {
    await logoutEverywhere();
    const view = await screenOf(mount('<acct-manage></acct-manage>'));
    expect(await view.findByText('You are not signed in.')).to.exist;
    expect(view.getByRole('link', { name: 'Sign in' }).getAttribute('href')).to.equal(
      `${location.origin}/login/team`,
    );
  });

  it('shows the personal info: e-mail, team, name, creation date in full, permission labels', async () => {
    await signInAs('ada@acme.test');
    const { view } = await openManage();
    expect(await view.findByText('ada@acme.test')).to.exist;
    expect(view.getByText('Acme')).to.exist;
    expect(view.getByText('Ada Lovelace')).to.exist;
    expect(await view.findByText('Owner')).to.exist;
    const created = view.getByText(/day, /, { selector: 'time' });
    expect(created.textContent).to.match(/^[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(view.getByRole('navigation', { name: 'Account' })).to.exist;
    expect(view.getByRole('link', { name: 'Personal info' }).getAttribute('aria-current')).to.equal('page');
  });

  it('checks the name: required and at most 50 characters', async () => {
    await signInAs('carol@globex.test');
    const { element, view } = await openManage();
    fireEvent.click(await view.findByRole('button', { name: 'Edit name' }));
    const form = await dialog(element);
    const field = form.getByLabelText('Your name') as HTMLInputElement;
    // The name rule (50, the server's) is counted at the field, never cut short by maxlength.
    expect(field.maxLength).to.equal(-1);
    type(field, '   ');
    fireEvent.click(form.getByRole('button', { name: 'Set name' }));
    expect(await form.findByText('Enter your name.')).to.exist;
    type(field, 'x'.repeat(45));
    expect(form.getByText('5 characters left')).to.exist;
    type(field, 'x'.repeat(51));
    expect(form.getByText('1 character too many')).to.exist;
    fireEvent.click(form.getByRole('button', { name: 'Set name' }));
    expect(await form.findByText('Your name cannot be more than 50 characters.')).to.exist;
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    fireEvent.click(form.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(element.shadowRoot!.querySelector('dialog[open]')).to.equal(null));
  });

  it('checks the change-password form: required fields, new ≠ old, new = confirm, and the wrong current password', async function () {
    this.timeout(30000);
    await signInAs('ada@acme.test');
    const { element, view } = await openManage();
    fireEvent.click(await view.findByRole('button', { name: 'Change password' }));
    const form = await dialog(element);
    expect(form.getByRole('heading', { name: 'Change password' })).to.exist;
    const submit = () => fireEvent.click(form.getByRole('button', { name: 'Change password' }));
    submit();
    expect(await form.findByText('Enter your current password.')).to.exist;
    expect(form.getByText('Enter a new password.')).to.exist;
    expect(form.getByText('Confirm your new password.')).to.exist;
    for (const label of ['Current password', 'New password', 'Confirm new password'])
      expect((form.getByLabelText(label) as HTMLInputElement).maxLength, label).to.equal(4096);
    type(form.getByLabelText('Current password'), 'same-same-same');
    type(form.getByLabelText('New password'), 'same-same-same');
    type(form.getByLabelText('Confirm new password'), 'different');
    submit();
    expect(await form.findByText('The new password must be different from the current one.')).to.exist;
    type(form.getByLabelText('New password'), 'a new long password');
    submit();
    // The same words as the reset screen's for the same mistake.
    expect(await form.findByText('The passwords do not match.')).to.exist;
    type(form.getByLabelText('Confirm new password'), 'a new long password');
    submit();
    // The server hashes the wrong password on purpose slowly; a busy machine needs more than 5 s.
    expect(await form.findByText('The current password does not match.', {}, { timeout: 15000 })).to.exist;
    expect(form.getByLabelText('Current password').getAttribute('aria-invalid')).to.equal('true');
  });

  it('offers Set password without a current-password field to a user who has none', async () => {
    await signInAs('dan@umbrella.test');
    const { element, view } = await openManage();
    fireEvent.click(await view.findByRole('button', { name: 'Set password' }));
    const form = await dialog(element);
    expect(form.getByRole('heading', { name: 'Set password' })).to.exist;
    expect(form.queryByLabelText('Current password')).to.equal(null);
    // The match is not checked here for a first password (spec §5); the server refuses, on both fields.
    type(form.getByLabelText('New password'), 'dan long password one');
    type(form.getByLabelText('Confirm new password'), 'dan long password two');
    fireEvent.click(form.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(form.getAllByText('The passwords do not match.')).to.have.length(2));
  });
});

describe('<acct-portal> manage screens', () => {
  const page = location.href;
  before(serverReady);

  afterEach(async () => {
    document.body.replaceChildren();
    history.replaceState(null, '', page);
    await logoutEverywhere();
  });

  /** The texts of the headings of a level, in the element's shadow root. */
  const headings = (root: ShadowRoot, level: 1 | 2) =>
    [...root.querySelectorAll(`h${level}`)].map((heading) => heading.textContent);

  it('names each screen in its one h1, which no panel heading repeats', async function () {
    this.timeout(30000);
    await signInAs('ada@acme.test');
    const screens: Array<[string, string]> = [
      ['/manage', 'Personal info'],
      ['/manage/sessions', 'Sessions'],
      ['/manage/apps', 'Connected apps'],
      ['/manage/activity', 'Security activity'],
      ['/manage/email', 'Email address'],
      ['/manage/leave', 'Delete account'],
      ['/manage/qr', 'QR code sign-in'],
      ['/manage/dev', 'Developer tools'],
      ['/manage/dev/success', 'Your tokens'],
      ['/manage/team', 'Team settings'],
      ['/manage/user', 'User management'],
      ['/manage/group', 'Group management'],
    ];
    for (const [path, name] of screens) {
      history.replaceState(null, '', path);
      const element = mount('<acct-portal></acct-portal>');
      const root = await rendered(element);
      // The screen's own chunk has arrived once its first panel shows.
      await waitFor(() => expect(root.querySelector('.manage-content .panel')).to.not.equal(null));
      expect(headings(root, 1), path).to.deep.equal([name]);
      expect(headings(root, 2), path).to.not.include(name);
      element.parentElement!.remove();
    }
  });

  it('puts focus on the heading that names the new screen after a click in the sidebar', async () => {
    await signInAs('ada@acme.test');
    history.replaceState(null, '', '/manage');
    const element = mount('<acct-portal></acct-portal>');
    const view = await screenOf(element);
    await view.findByRole('heading', { level: 1, name: 'Personal info' });
    const sidebar = within(element.shadowRoot!.querySelector('nav.sidebar') as HTMLElement);
    fireEvent.click(sidebar.getByRole('link', { name: 'QR code sign-in' }));
    await waitFor(() => expect(element.shadowRoot!.activeElement?.tagName).to.equal('H1'));
    expect(element.shadowRoot!.activeElement!.textContent).to.equal('QR code sign-in');
  });
});
