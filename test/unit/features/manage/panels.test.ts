import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/dom';
import '../../../../src/index';
import { readCookie } from '../../../../src/api/client';
import { generateDeviceCode, saveName } from '../../../../src/api/endpoints';
import { developerToolsSupported } from '../../../../src/features/manage/routes';
import { permissionText } from '../../../../src/features/manage/permissions';
import { withManageTexts } from '../../render';
import { noticesStore } from '../../../../src/state/notices';
import { sessionStore } from '../../../../src/state/session';
import { logoutEverywhere, mount, serverReady, screenOf, signInAs, watchFor } from '../../support';

async function openManage(attributes = '', heading = 'Personal info') {
  const element = mount(`<acct-manage ${attributes}></acct-manage>`);
  const view = await screenOf(element);
  await view.findByRole('heading', { name: heading });
  return { element, view };
}

async function dialog(element: HTMLElement) {
  await waitFor(() => expect(element.shadowRoot!.querySelector('dialog[open] form')).to.not.equal(null));
  return within(element.shadowRoot!.querySelector('dialog[open]') as HTMLElement);
}

/** The open confirmation dialog (no form fields in it, unlike the name and password dialogs). */
async function confirmation(element: HTMLElement) {
  await waitFor(() =>
    expect(element.shadowRoot!.querySelector('dialog[open] .dialog-actions')).to.not.equal(null),
  );
  return within(element.shadowRoot!.querySelector('dialog[open]') as HTMLElement);
}

/**
 * Whether a dialog is open. Checks that find elements compare booleans: chai describes an element it
 * did not expect by walking every field React keeps on it, which takes longer than the test may.
 */
const dialogOpen = (element: HTMLElement) => element.shadowRoot!.querySelector('dialog[open]') !== null;

/** The element that has focus inside the element's shadow root. */
const focused = (element: HTMLElement) => element.shadowRoot!.activeElement;

/** A panel's queries, found by its name (its own heading, or the screen's heading that names it). */
function panel(view: Awaited<ReturnType<typeof screenOf>>, name: string) {
  return within(view.getByRole('region', { name }));
}

const type = (input: HTMLElement, value: string) => fireEvent.input(input, { target: { value } });

before(serverReady);

afterEach(async () => {
  document.body.replaceChildren();
  noticesStore.setState({ queue: [] });
  await logoutEverywhere();
});

describe('<acct-manage> personal info', () => {
  it('marks the name invalid when the server refuses it (a control character)', async () => {
    await signInAs('carol@globex.test');
    const { element, view } = await openManage();
    fireEvent.click(await view.findByRole('button', { name: 'Edit name' }));
    const form = await dialog(element);
    const field = form.getByLabelText('Your name');
    // Within 50 characters and not blank, so the client sends it; the server refuses control characters.
    type(field, 'Carol\u0007Diaz');
    fireEvent.click(form.getByRole('button', { name: 'Set name' }));
    expect(await form.findByText('Your name could not be saved. Try again.')).to.exist;
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    expect(element.shadowRoot!.querySelector('dialog[open]'), 'the dialog stays open').to.not.equal(null);
    expect(view.getByText('Carol Diaz')).to.exist;
  });

  it('shows the new name right after a rename, without a reload', async () => {
    await signInAs('carol@globex.test');
    const { element, view } = await openManage();
    try {
      fireEvent.click(await view.findByRole('button', { name: 'Edit name' }));
      const form = await dialog(element);
      type(form.getByLabelText('Your name'), '  Carol Renamed  ');
      fireEvent.click(form.getByRole('button', { name: 'Set name' }));
      expect(await view.findByText('Carol Renamed')).to.exist;
      await waitFor(() => expect(element.shadowRoot!.querySelector('dialog[open]')).to.equal(null));
      expect(view.queryByText('Carol Diaz')).to.equal(null);
      expect(sessionStore.getState().user?.name).to.equal('Carol Renamed');
    } finally {
      // Other tests in this run expect the seeded name.
      await sessionStore.getState().authorized((ctx) => saveName(ctx, 'Carol Diaz'));
    }
  });

  it('shows the permission labels and the creation date in the language of the element (de)', async () => {
    await signInAs('ada@acme.test');
    const { view } = await openManage('lang="de"', 'Persönliche Daten');
    expect(await view.findByText('Inhaber')).to.exist;
    const created = panel(view, 'Persönliche Daten').getByText((_, node) => node?.tagName === 'TIME');
    // German full date: "Montag, 23. November 2026" (one weekday, Mittwoch, does not end in "tag").
    expect(created.textContent).to.match(
      /^(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4}$/,
    );
    expect(created.textContent).to.equal(
      new Intl.DateTimeFormat('de', { dateStyle: 'full' }).format(
        new Date(created.getAttribute('datetime')!),
      ),
    );
  });
});

describe('permission text (spec §2: comma-joined, or "No Permissions Defined")', () => {
  it('joins the granted labels, in order, and leaves out the refused ones', async () => {
    const en = (await withManageTexts('en')).t;
    expect(permissionText({ OWNER: true, ADMIN: false, EDITOR: true }, en, 'en')).to.equal('Owner, Editor');
    expect(permissionText({ CUSTOM_FLAG: true }, en, 'en'), 'an unknown name shows as it is').to.equal(
      'CUSTOM_FLAG',
    );
  });

  it('says "No Permissions Defined" when none is granted', async () => {
    const en = (await withManageTexts('en')).t;
    expect(permissionText({}, en, 'en')).to.equal('No Permissions Defined');
    expect(permissionText({ OWNER: false, SPOKE: false }, en, 'en')).to.equal('No Permissions Defined');
  });

  it('translates the labels and the list (de)', async () => {
    const de = (await withManageTexts('de')).t;
    expect(permissionText({ OWNER: true, EDITOR: true }, de, 'de')).to.equal('Inhaber und Bearbeiter');
    expect(permissionText({}, de, 'de')).to.not.equal('No Permissions Defined');
  });

  it('joins Japanese labels with “、”, not a bare space', async () => {
    const ja = (await withManageTexts('ja')).t;
    expect(permissionText({ ADMIN: true, EDITOR: true }, ja, 'ja')).to.equal('管理者、編集者');
  });
});

describe('<acct-manage> password panel', () => {
  it('shows a spinner while loading, then the masked value, the rules hint and the last-changed date', async () => {
    await signInAs('ada@acme.test');
    const element = mount('<acct-manage></acct-manage>');
    const root = element.shadowRoot!;
    const loading = watchFor(root, () => {
      const section = root.querySelector('section[aria-labelledby="password-title"]');
      return (
        !!section?.querySelector('[role="status"] .spinner') && section.getAttribute('aria-busy') === 'true'
      );
    });
    const view = await screenOf(element);
    const passwords = await waitFor(() => panel(view, 'Password'));
    expect(await passwords.findByRole('button', { name: 'Change password' })).to.exist;
    loading.stop();
    expect(loading.seen(), 'a spinner while the options load').to.equal(true);
    expect(passwords.getByLabelText('Password hidden').textContent).to.equal('••••••••');
    expect(passwords.getByText('Use 8 to 128 characters. Avoid common passwords and your email address.')).to
      .exist;
    const changed = passwords.getByText((_, node) => node?.tagName === 'TIME');
    const at = new Date(changed.getAttribute('datetime')!);
    expect(Number.isNaN(at.getTime())).to.equal(false);
    expect(changed.textContent).to.equal(
      new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short' }).format(at),
    );
    expect(changed.textContent).to.match(/^[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M$/);
  });

  it('disables the submit button while the change runs', async function () {
    this.timeout(30000);
    await signInAs('ada@acme.test');
    const { element, view } = await openManage();
    fireEvent.click(await view.findByRole('button', { name: 'Change password' }));
    const form = await dialog(element);
    const submit = form.getByRole('button', { name: 'Change password' }) as HTMLButtonElement;
    expect(submit.disabled).to.equal(false);
    const busy = watchFor(element.shadowRoot!, () => submit.disabled);
    // A wrong current password: the server hashes it (slowly, on purpose) and refuses — nothing changes.
    type(form.getByLabelText('Current password'), 'not the password at all');
    type(form.getByLabelText('New password'), 'a brand new long password');
    type(form.getByLabelText('Confirm new password'), 'a brand new long password');
    fireEvent.click(submit);
    // The server hashes the wrong password on purpose slowly; a busy machine needs more than 5 s.
    expect(await form.findByText('The current password does not match.', {}, { timeout: 15000 })).to.exist;
    busy.stop();
    expect(busy.seen(), 'disabled while the request ran').to.equal(true);
    expect(submit.disabled, 'enabled again after the answer').to.equal(false);
  });
});

describe('<acct-manage> password panel, failed', () => {
  it('offers to try again after the options failed to load, and loads them', async () => {
    await signInAs('ada@acme.test');
    // The first load of the sign-in options fails (as a network error would); the retry reaches the server.
    const realFetch = window.fetch;
    let refused = 0;
    window.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      if (init?.method === 'GET' && url.pathname === '/api/user/password' && refused === 0) {
        refused++;
        return Promise.resolve(Response.json({ message: 'unavailable' }, { status: 503 }));
      }
      return realFetch(input, init);
    };
    try {
      const { element, view } = await openManage();
      const passwords = panel(view, 'Password');
      expect(await passwords.findByText('Something went wrong. Please try again.')).to.exist;
      fireEvent.click(passwords.getByRole('button', { name: 'Try again' }));
      // The button goes away while loading: focus stays in the panel, on its title.
      expect(focused(element) === passwords.getByRole('heading', { name: 'Password' })).to.equal(true);
      expect(await passwords.findByRole('button', { name: 'Change password' })).to.exist;
      expect(passwords.queryByText('Something went wrong. Please try again.') === null).to.equal(true);
      expect(refused).to.equal(1);
    } finally {
      window.fetch = realFetch;
    }
  });
});

describe('<acct-manage> developer tools link (spec §2: hidden on old IE-like browsers only)', () => {
  afterEach(() => {
    delete (document as { documentMode?: number }).documentMode;
  });

  it('is offered by current browsers, whatever the clipboard API', async () => {
    expect(developerToolsSupported()).to.equal(true);
    const clipboard = navigator.clipboard;
    // As on a plain-http intranet host: no clipboard API outside secure contexts.
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined });
    try {
      expect(developerToolsSupported()).to.equal(true);
      await signInAs('carol@globex.test');
      const { view } = await openManage();
      expect(view.getByRole('link', { name: 'Developer tools' })).to.exist;
    } finally {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
    }
  });

  it('is hidden where document.documentMode exists (Internet Explorer and IE mode)', async () => {
    Object.defineProperty(document, 'documentMode', { configurable: true, value: 11 });
    expect(developerToolsSupported()).to.equal(false);
    await signInAs('carol@globex.test');
    const { view } = await openManage();
    expect(view.getByRole('link', { name: 'QR code sign-in' })).to.exist;
    expect(view.queryByRole('link', { name: 'Developer tools' })).to.equal(null);
  });
});

/**
 * Disconnect Google, with that one DELETE answered by `answer` instead of the server (everything else
 * reaches the real server): ada's Google account stays connected for the other tests.
 */
async function disconnectGoogleAnswered(answer: () => Promise<Response>) {
  await signInAs('ada@acme.test');
  const { element, view } = await openManage();
  const accounts = await waitFor(() => panel(view, 'Third-party accounts'));
  const disconnect = await accounts.findByRole('button', { name: 'Disconnect Google' });
  const realFetch = window.fetch;
  let answered!: () => void;
  const sent = new Promise<void>((resolve) => (answered = resolve));
  window.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (init?.method !== 'DELETE' || url.pathname !== '/api/user/password/Google')
      return realFetch(input, init);
    answered();
    return answer();
  };
  try {
    fireEvent.click(disconnect);
    fireEvent.click((await confirmation(element)).getByRole('button', { name: 'Disconnect' }));
    await sent;
    return view;
  } finally {
    window.fetch = realFetch;
  }
}

describe('<acct-manage> third-party accounts', () => {
  it('checks the session when the server refuses a stale anti-forgery token, and asks to sign in again (a real 403)', async () => {
    await signInAs('ada@acme.test');
    const { element, view } = await openManage();
    const accounts = await waitFor(() => panel(view, 'Third-party accounts'));
    const disconnect = await accounts.findByRole('button', { name: 'Disconnect Google' });
    const xsrf = readCookie(document.cookie, 'XSRF-TOKEN')!;
    // A token that is not this session's (as after a session ended elsewhere): the server's anti-forgery
    // rule refuses the DELETE, and the session check it leads to, so ada's Google account stays connected
    // for the other tests.
    document.cookie = 'XSRF-TOKEN=not-this-sessions-token; Path=/; Secure; SameSite=None';
    try {
      fireEvent.click(disconnect);
      fireEvent.click((await confirmation(element)).getByRole('button', { name: 'Disconnect' }));
      // Not "try again", which could never work: the element says to sign in.
      expect(await view.findByText('You are not signed in.')).to.exist;
      expect(view.getByRole('link', { name: 'Sign in' })).to.exist;
      expect(view.queryByText('Unable to remove the Google account')).to.equal(null);
    } finally {
      document.cookie = `XSRF-TOKEN=${xsrf}; Path=/; Secure; SameSite=None`;
    }
    await signInAs('ada@acme.test');
    const again = await openManage();
    const stillThere = await waitFor(() => panel(again.view, 'Third-party accounts'));
    expect(await stillThere.findByRole('button', { name: 'Disconnect Google' })).to.exist;
  });

  it('says it cannot remove the account when the server cannot be reached', async () => {
    // The connection lost for this one DELETE only.
    const view = await disconnectGoogleAnswered(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await view.findByText('Unable to remove the Google account')).to.exist;
  });

  it('explains a 409 from the server as the only sign-in option', async () => {
    // No seeded user can reach the server's 409 through this panel (it refuses the only sign-in option
    // itself first; the server's answer matters when the view is stale, e.g. another tab disconnected the
    // other account). Last resort: this one DELETE is answered here with the server's 409, and is never
    // sent.
    const view = await disconnectGoogleAnswered(async () =>
      Response.json({ message: 'this is the only sign-in option' }, { status: 409 }),
    );
    expect(await view.findByText('You cannot remove your only sign-in option. Set a password first.')).to
      .exist;
    expect(view.queryByText('Unable to remove the Google account')).to.equal(null);
  });

  it('refuses to disconnect the only sign-in option without asking the server', async () => {
    await signInAs('bob@acme.test');
    const { element, view } = await openManage();
    const accounts = await waitFor(() => panel(view, 'Third-party accounts'));
    fireEvent.click(await accounts.findByRole('button', { name: 'Disconnect Google' }));
    expect(await view.findByText('You cannot remove your only sign-in option. Set a password first.')).to
      .exist;
    expect(accounts.getByText('Connected as bob@acme.test')).to.exist;
    // Nothing to confirm: it would only be refused.
    expect(dialogOpen(element)).to.equal(false);
  });

  it('asks first, naming the provider and the account; Escape and Cancel keep it connected', async () => {
    await signInAs('ada@acme.test');
    const { element, view } = await openManage();
    const accounts = await waitFor(() => panel(view, 'Third-party accounts'));
    const disconnect = await accounts.findByRole('button', { name: 'Disconnect Google' });
    const deletes: string[] = [];
    const realFetch = window.fetch;
    window.fetch = (input, init) => {
      if (init?.method === 'DELETE') deletes.push(String(input));
      return realFetch(input, init);
    };
    try {
      disconnect.focus();
      fireEvent.click(disconnect);
      let ask = await confirmation(element);
      const dialog = element.shadowRoot!.querySelector('dialog[open]')!;
      expect(dialog.getAttribute('role')).to.equal('alertdialog');
      expect(ask.getByRole('heading', { name: 'Disconnect your Google account?' })).to.exist;
      const text = ask.getByText(/ada@acme\.test/);
      expect(text.textContent).to.contain('Google');
      expect(dialog.getAttribute('aria-describedby')).to.equal(text.id);
      // The safe choice has focus; the destructive one looks it.
      expect(focused(element) === ask.getByRole('button', { name: 'Cancel' }), 'focus on Cancel').to.equal(
        true,
      );
      expect(ask.getByRole('button', { name: 'Disconnect' }).classList.contains('danger')).to.equal(true);

      // What the browser does on Escape in a modal dialog: a cancelable `cancel` event.
      dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
      await waitFor(() => expect(dialogOpen(element)).to.equal(false));
      await waitFor(() => expect(focused(element) === disconnect, 'focus back on Disconnect').to.equal(true));

      fireEvent.click(disconnect);
      ask = await confirmation(element);
      fireEvent.click(ask.getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(dialogOpen(element)).to.equal(false));
      await waitFor(() => expect(focused(element) === disconnect, 'focus back on Disconnect').to.equal(true));
      expect(accounts.getByText('Connected as ada@acme.test')).to.exist;
      expect(deletes).to.deep.equal([]);
    } finally {
      window.fetch = realFetch;
    }
  });
});

/**
 * The QR screen of a user who has already had `used` of the server's 10 codes (its rate limit), through
 * the same API call the button makes.
 */
async function openQr(email: string, used: number) {
  await signInAs(email);
  for (let i = 0; i < used; i++) {
    await sessionStore.getState().authorized((ctx) => generateDeviceCode(ctx));
  }
  const element = mount('<acct-manage></acct-manage>');
  const view = await screenOf(element);
  fireEvent.click(await view.findByRole('link', { name: 'QR code sign-in' }));
  const generate = (await view.findByRole('button', { name: 'Generate QR code' })) as HTMLButtonElement;
  return { element, view, generate };
}

describe('<acct-manage> QR code login', () => {
  it('says "Unable to generate QR code" when the server refuses (its rate limit of 10 codes)', async function () {
    this.timeout(30000);
    const { view, generate } = await openQr('dan@umbrella.test', 10);
    fireEvent.click(generate);
    expect(await view.findByText('Unable to generate QR code')).to.exist;
    expect(view.queryByRole('img', { name: 'QR code for signing in to the mobile app' })).to.equal(null);
  });

  it('takes the previous code off the screen when generating a new one fails', async function () {
    this.timeout(30000);
    // One code left: the first click gets it, the second is refused.
    const { element, view, generate } = await openQr('bob@acme.test', 9);
    fireEvent.click(generate);
    expect(await view.findByRole('img', { name: 'QR code for signing in to the mobile app' })).to.exist;
    expect(view.getByText(/^Code /)).to.exist;
    await waitFor(() => expect(generate.disabled).to.equal(false));
    fireEvent.click(generate);
    expect(await view.findByText('Unable to generate QR code')).to.exist;
    const stale = () => element.shadowRoot!.querySelector('figure.qr, .qr-code') !== null;
    expect(stale(), 'the old code is gone').to.equal(false);
    expect(view.queryByText(/^Code /) === null, 'its caption is gone').to.equal(true);
  });
});
