import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/dom';
import '../../../../src/index';
import { readCookie } from '../../../../src/api/client';
import { forgetCapturedTokens } from '../../../../src/features/token/fragment';
import { asIs } from '../../../../src/i18n/said';
import { noticesStore } from '../../../../src/state/notices';
import { sessionStore } from '../../../../src/state/session';
import {
  fakeJwt,
  logoutEverywhere,
  mount,
  serverReady,
  rendered,
  screenOf,
  signInAs,
  submittedFields,
} from '../../support';

const EXPIRES = new Date('2031-03-14T15:09:00Z');
const ACCESS = fakeJwt({ scope: 'Job_Read Reports_Read', exp: EXPIRES.getTime() / 1000 });
const ID = fakeJwt({ sub: 'ada', name: 'Ada Lovelace' });

const page = location.href;
function openWithTokens(path = location.pathname) {
  history.replaceState(null, '', `${path}#access_token=${ACCESS}&id_token=${ID}`);
}

before(serverReady);

describe('<acct-token>', () => {
  // Start signed out for real: a session cookie left in this browser context would sign the page in.
  beforeEach(logoutEverywhere);
  afterEach(async () => {
    document.body.replaceChildren();
    history.replaceState(null, '', page);
    forgetCapturedTokens();
    noticesStore.setState({ queue: [] });
    await logoutEverywhere();
  });

  it('keeps showing the tokens from the fragment after the session check, and removes the fragment at once', async () => {
    sessionStore.getState().reset();
    openWithTokens();
    const element = mount('<acct-token></acct-token>');
    expect(location.hash, 'removed when the element starts').to.equal('');
    const view = await screenOf(element);
    const access = (await view.findByLabelText('Access token')) as HTMLTextAreaElement;
    // The session check ends (nobody is signed in here) and re-renders the element: the tokens stay.
    await waitFor(() => expect(sessionStore.getState().status).to.equal('loggedOut'));
    // React renders the stores' changes in order: once a notice shown after the check is on screen, the
    // check's re-render is done too.
    noticesStore.getState().show(asIs('after the check'));
    await view.findByText('after the check');
    expect(view.getByLabelText('Access token')).to.equal(access);
    expect(access.value).to.equal(ACCESS);
    expect(access.readOnly).to.equal(true);
    const id = view.getByLabelText('ID token') as HTMLTextAreaElement;
    expect(id.value).to.equal(ID);
    expect(id.readOnly).to.equal(true);
    expect(view.getByText('Copy it to authorize your API requests.')).to.exist;
    expect(view.getByText('Copy it to use as proof of who you are.')).to.exist;
    expect(view.getByText('These tokens expire after one hour. Generate new ones when they do.')).to.exist;
    expect(view.getByText('Job_Read, Reports_Read')).to.exist;
    expect(location.hash).to.equal('');
  });

  it('copies each token with a whole-sentence label and says so', async () => {
    sessionStore.getState().reset();
    const copied: string[] = [];
    const clipboard = navigator.clipboard;
    // Headless Chromium refuses clipboard writes from a page without focus; record what would be copied.
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void copied.push(text) },
    });
    try {
      openWithTokens();
      const view = await screenOf(mount('<acct-token></acct-token>'));
      fireEvent.click(await view.findByRole('button', { name: 'Copy ID token' }));
      expect(await view.findByText('ID token copied')).to.exist;
      fireEvent.click(view.getByRole('button', { name: 'Copy access token' }));
      expect(await view.findByText('Access token copied')).to.exist;
      expect(copied).to.deep.equal([ID, ACCESS]);
    } finally {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
    }
  });

  it('says so when copying fails', async () => {
    sessionStore.getState().reset();
    const clipboard = navigator.clipboard;
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
    });
    try {
      openWithTokens();
      const view = await screenOf(mount('<acct-token></acct-token>'));
      fireEvent.click(await view.findByRole('button', { name: 'Copy ID token' }));
      expect(await view.findByText('Could not copy. Select the text and copy it yourself.')).to.exist;
    } finally {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
    }
  });

  it("shows the expiry time in the element's language", async () => {
    sessionStore.getState().reset();
    openWithTokens();
    const view = await screenOf(mount('<acct-token lang="de"></acct-token>'));
    expect(await view.findByRole('button', { name: 'Zugriffstoken kopieren' })).to.exist;
    expect(view.getByRole('button', { name: 'ID-Token kopieren' })).to.exist;
    const time = view.getByText((_, node) => node?.tagName === 'TIME');
    expect(time.getAttribute('datetime')).to.equal(EXPIRES.toISOString());
    // German medium date and short time: "14.03.2031, 16:09" (in the browser's time zone).
    expect(time.textContent).to.match(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    expect(time.textContent).to.equal(
      new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeStyle: 'short' }).format(EXPIRES),
    );
  });

  it('shows the policy form to a signed-in user, with the saved scopes checked and the anti-forgery field', async () => {
    await signInAs('ada@acme.test');
    localStorage.setItem('savedScopes', 'Job_Read');
    // Every call goes to the real identity server; the policy list's request is watched for its bearer header.
    const realFetch = window.fetch;
    let bearer: string | null = null;
    window.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      if (url.pathname === '/policy/raw') {
        expect(url.search).to.equal('?showinternal=false');
        bearer = new Headers(init?.headers).get('Authorization');
      }
      return realFetch(input, init);
    };
    try {
      const element = mount('<acct-token></acct-token>');
      const view = await screenOf(element);
      expect(await view.findByRole('heading', { name: 'Developer tools' })).to.exist;
      // The brand's API address, in a <code> inside its sentence.
      const address = view.getByText('https://api.workfloplus.com/');
      expect(address.tagName).to.equal('CODE');
      expect(address.parentElement!.textContent).to.equal('API address: https://api.workfloplus.com/');
      const jobRead = (await view.findByRole('checkbox', { name: /Job_Read/ })) as HTMLInputElement;
      expect(jobRead.name).to.equal('scope');
      expect(jobRead.value).to.equal('Job_Read');
      expect(jobRead.checked).to.equal(true);
      const teamAdmin = view.getByRole('checkbox', { name: /Team_Admin/ }) as HTMLInputElement;
      expect(teamAdmin.checked).to.equal(false);
      expect(bearer).to.equal(`Bearer ${sessionStore.getState().accessToken}`);
      const form = jobRead.form!;
      expect(form.method).to.equal('post');
      expect(new URL(form.action).pathname).to.equal('/home/token');
      const xsrf = form.querySelector<HTMLInputElement>('input[name="__RequestVerificationToken"]')!;
      expect(xsrf.type).to.equal('hidden');
      // Filled when the form is sent, from the cookie as it is then (ui/xsrf-field.tsx).
      expect(xsrf.value).to.equal('');
      const sent = submittedFields(form);
      expect(sent.__RequestVerificationToken).to.be.a('string').and.not.equal('');
      expect(sent.__RequestVerificationToken).to.equal(readCookie(document.cookie, 'XSRF-TOKEN'));
      expect(sent.scope).to.equal('Job_Read');
      // Choosing is remembered; an empty choice is stopped here, without a navigation.
      fireEvent.click(teamAdmin);
      expect(localStorage.getItem('savedScopes')).to.equal('Job_Read,Team_Admin');
      fireEvent.click(jobRead);
      fireEvent.click(teamAdmin);
      fireEvent.click(view.getByRole('button', { name: 'Generate access token' }));
      expect(await view.findByText('Choose at least one policy.')).to.exist;
    } finally {
      window.fetch = realFetch;
      localStorage.removeItem('savedScopes');
    }
  });
});

describe('generating new tokens from the success page', () => {
  afterEach(async () => {
    document.body.replaceChildren();
    history.replaceState(null, '', page);
    forgetCapturedTokens();
    localStorage.removeItem('savedScopes');
    await logoutEverywhere();
  });

  for (const [tag, path] of [
    ['acct-portal', '/manage/dev/success'],
    ['acct-token', location.pathname],
  ] as const) {
    it(`goes back to the policy form with the saved choice (<${tag}>)`, async () => {
      await signInAs('ada@acme.test');
      localStorage.setItem('savedScopes', 'Job_Read,Reports_Read');
      openWithTokens(path);
      const element = mount(`<${tag}></${tag}>`);
      const view = await screenOf(element);
      await view.findByLabelText('Access token');
      fireEvent.click(view.getByRole('link', { name: 'Generate new tokens' }));
      const jobRead = (await view.findByRole('checkbox', { name: /Job_Read/ })) as HTMLInputElement;
      expect(jobRead.checked).to.equal(true);
      expect((view.getByRole('checkbox', { name: /Reports_Read/ }) as HTMLInputElement).checked).to.equal(
        true,
      );
      expect((view.getByRole('checkbox', { name: /Team_Admin/ }) as HTMLInputElement).checked).to.equal(
        false,
      );
      expect(view.queryByLabelText('Access token') === null, 'the tokens are gone').to.equal(true);
      if (tag === 'acct-portal') expect(location.pathname).to.equal('/manage/dev');
      else expect(location.pathname, "the host page's address stays").to.equal(path);
    });
  }
});

describe('<acct-portal> token success page', () => {
  afterEach(async () => {
    document.body.replaceChildren();
    history.replaceState(null, '', page);
    forgetCapturedTokens();
    await logoutEverywhere();
  });

  it('removes the fragment before the session check and the lazily loaded chunks, and still shows the tokens', async () => {
    await signInAs('ada@acme.test');
    openWithTokens('/manage/dev/success');
    const element = mount('<acct-portal></acct-portal>');
    expect(location.hash, 'gone as the element starts').to.equal('');
    expect(element.shadowRoot!.querySelector('textarea'), 'the token chunk has not arrived yet').to.equal(
      null,
    );
    const root = await rendered(element);
    const view = within(root as unknown as HTMLElement);
    const access = (await view.findByLabelText('Access token')) as HTMLTextAreaElement;
    expect(access.value).to.equal(ACCESS);
    expect((view.getByLabelText('ID token') as HTMLTextAreaElement).value).to.equal(ID);
    expect(location.pathname).to.equal('/manage/dev/success');
    expect(location.hash).to.equal('');
  });
});
