import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/dom';
import '../../../../src/index';
import { signInHref } from '../../../../src/features/header/sign-in-href';
import { preferencesStore } from '../../../../src/state/preferences';
import { sessionStore } from '../../../../src/state/session';
import { logoutEverywhere, mount, rendered, serverReady, signInAs } from '../../support';

const page = location.href;

async function header(attributes = '') {
  const element = mount(`<acct-header ${attributes}></acct-header>`);
  const root = await rendered(element);
  return { element, root, view: within(root as unknown as HTMLElement) };
}

describe('signInHref', () => {
  const issuer = 'https://id.example.test';

  it('leads to the issuer’s team screen, with the way back on the issuer’s own origin', () => {
    expect(signInHref(issuer, { origin: issuer, pathname: '/search', search: '?q=a b' })).to.equal(
      'https://id.example.test/login/team?ReturnUrl=%2Fsearch%3Fq%3Da+b',
    );
  });

  it('gives no way back from another origin (the portal takes same-origin paths only), nor to /', () => {
    expect(
      signInHref(issuer, { origin: 'https://app.example.test', pathname: '/jobs', search: '?id=1' }),
    ).to.equal('https://id.example.test/login/team');
    expect(signInHref(issuer, { origin: issuer, pathname: '/', search: '' })).to.equal(
      'https://id.example.test/login/team',
    );
  });
});

describe('<acct-header> signed out', () => {
  before(serverReady);

  afterEach(async () => {
    document.body.replaceChildren();
    history.replaceState(null, '', page);
    preferencesStore.setState({ darkMode: false });
    localStorage.removeItem('darkMode');
    await logoutEverywhere();
  });

  it('offers Sign in back to this page, the privacy link and the theme switch', async () => {
    await logoutEverywhere();
    history.replaceState(null, '', '/some/page?tab=2');
    const { view } = await header();
    const signIn = (await view.findByRole('link', { name: 'Sign in' })) as HTMLAnchorElement;
    expect(signIn.getAttribute('href')).to.equal(
      `${location.origin}/login/team?ReturnUrl=%2Fsome%2Fpage%3Ftab%3D2`,
    );
    const privacy = view.getByRole('link', { name: 'Privacy policy' });
    expect(privacy.getAttribute('href')).to.equal('https://www.intoware.com/privacy-policy/');
    expect(privacy.getAttribute('target')).to.equal('_blank');
    expect(view.getByRole('button', { name: 'Language: English' })).to.exist;
    expect(view.getByRole('button', { name: 'Dark theme' }).getAttribute('aria-pressed')).to.equal('false');
  });

  it('keeps the Sign in link’s way back up to date when the page has moved on (History API)', async () => {
    await logoutEverywhere();
    history.replaceState(null, '', '/first');
    const { view } = await header();
    const signIn = (await view.findByRole('link', { name: 'Sign in' })) as HTMLAnchorElement;
    history.replaceState(null, '', '/second?x=1');
    // Stop the navigation itself: only the address the click leads to matters here.
    const stop = (event: Event) => event.preventDefault();
    document.addEventListener('click', stop);
    try {
      signIn.click();
    } finally {
      document.removeEventListener('click', stop);
    }
    expect(signIn.getAttribute('href')).to.equal(`${location.origin}/login/team?ReturnUrl=%2Fsecond%3Fx%3D1`);
  });

  it('switches the theme as the account menu does: dark mode stored, acct-theme-change fired', async () => {
    await logoutEverywhere();
    const { element, root, view } = await header();
    const events: unknown[] = [];
    element.addEventListener('acct-theme-change', (event) => events.push((event as CustomEvent).detail));
    const themeSwitch = await view.findByRole('button', { name: 'Dark theme' });
    fireEvent.click(themeSwitch);
    await waitFor(() => expect(themeSwitch.getAttribute('aria-pressed')).to.equal('true'));
    expect(root.querySelector('[part="root"]')?.getAttribute('data-theme')).to.equal('dark');
    expect(localStorage.getItem('darkMode')).to.equal('true');
    fireEvent.click(themeSwitch);
    await waitFor(() => expect(themeSwitch.getAttribute('aria-pressed')).to.equal('false'));
    expect(events).to.deep.equal([{ theme: 'dark' }, { theme: 'light' }]);
  });

  it('has no theme switch for a brand without a dark theme', async () => {
    await logoutEverywhere();
    const { view } = await header('brand="schenck"');
    await view.findByRole('link', { name: 'Sign in' });
    expect(view.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).to.equal(
      'https://www.workfloplus.com/privacy-policy/',
    );
    expect(view.queryByRole('button', { name: 'Dark theme' })).to.equal(null);
  });

  it('leads to an issuer on another origin without a way back', async () => {
    await logoutEverywhere();
    // Nothing answers there: the session check fails, which leaves the visitor signed out.
    try {
      const { view } = await header('issuer="http://127.0.0.1:9"');
      const signIn = await view.findByRole('link', { name: 'Sign in' });
      expect(signIn.getAttribute('href')).to.equal('http://127.0.0.1:9/login/team');
    } finally {
      // The page's one session store follows the last issuer it was pointed at: back to the test server.
      document.body.replaceChildren();
      await sessionStore.getState().configure(location.origin);
    }
  });

  it('shows none of them to a signed-in user, whose menu has them', async () => {
    await signInAs('ada@acme.test');
    const { view } = await header();
    await view.findByRole('button', { name: 'Account menu for Ada Lovelace' });
    expect(view.queryByRole('link', { name: 'Sign in' })).to.equal(null);
    expect(view.queryByRole('link', { name: 'Privacy policy' })).to.equal(null);
    expect(view.queryByRole('button', { name: 'Dark theme' })).to.equal(null);
  });
});

describe('<acct-portal> header signed out', () => {
  before(serverReady);

  afterEach(async () => {
    document.body.replaceChildren();
    history.replaceState(null, '', page);
    await logoutEverywhere();
  });

  async function portalAt(address: string) {
    await logoutEverywhere();
    history.replaceState(null, '', address);
    const root = await rendered(mount('<acct-portal></acct-portal>'));
    await waitFor(() => expect(root.querySelector('header')).to.not.equal(null));
    return within(root.querySelector('header')!);
  }

  it('offers Sign in on a portal page, back to it', async () => {
    const bar = await portalAt('/search?q=workflow');
    const signIn = await bar.findByRole('link', { name: 'Sign in' });
    expect(signIn.getAttribute('href')).to.equal(
      `${location.origin}/login/team?ReturnUrl=%2Fsearch%3Fq%3Dworkflow`,
    );
  });

  it('does not offer Sign in on the sign-in screens themselves', async () => {
    const bar = await portalAt('/login/team');
    await bar.findByRole('link', { name: 'Privacy policy' });
    expect(bar.queryByRole('link', { name: 'Sign in' })).to.equal(null);
  });
});
