import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/dom';
import '../../../src/index';
import { sessionStore } from '../../../src/state/session';
import { logoutEverywhere, mount, serverReady, rendered } from '../support';

const page = location.href;

async function portalAt(address: string, attributes = '') {
  history.replaceState(null, '', address);
  const element = mount(`<acct-portal ${attributes}></acct-portal>`);
  return within((await rendered(element)) as unknown as HTMLElement);
}

describe('<acct-portal> base-path', () => {
  before(serverReady);

  afterEach(async () => {
    document.body.replaceChildren();
    history.replaceState(null, '', page);
    await logoutEverywhere();
  });

  it('routes the addresses under its base path, and its links stay under it', async () => {
    sessionStore.getState().reset();
    const view = await portalAt('/accounts/login/team', 'base-path="/accounts"');
    expect(await view.findByRole('heading', { name: 'Sign in to your team' })).to.exist;
    expect(location.pathname).to.equal('/accounts/login/team');
    fireEvent.input(view.getByLabelText('Team name'), { target: { value: 'acme' } });
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(await view.findByRole('heading', { name: 'Sign in to Acme' })).to.exist;
    expect(location.pathname).to.equal('/accounts/login/acme');
    const forgot = view.getByRole('link', { name: 'Forgot your password?' });
    expect(new URL((forgot as HTMLAnchorElement).href).pathname).to.equal(
      '/accounts/login/acme/forgotPassword',
    );
    fireEvent.click(forgot);
    await waitFor(() => expect(location.pathname).to.equal('/accounts/login/acme/forgotPassword'));
  });

  it('treats an address that only starts with the base path as outside it', async () => {
    sessionStore.getState().reset();
    await portalAt('/accountsX/login/acme', 'base-path="/accounts"');
    // Outside the base the portal is at '/', which the route table sends to /manage, under the base.
    await waitFor(() => expect(location.pathname).to.equal('/accounts/manage'));
  });

  it('redirects an unknown /login child to /login/team (replacing it), keeping ReturnUrl', async () => {
    sessionStore.getState().reset();
    history.replaceState(null, '', '/');
    history.pushState(null, '', '/');
    const before = history.length;
    const view = await portalAt('/login/acme/nope?ReturnUrl=%2Fmanage%2Fqr');
    await waitFor(() =>
      expect(`${location.pathname}${location.search}`).to.equal('/login/team?ReturnUrl=%2Fmanage%2Fqr'),
    );
    expect(history.length, 'replaced, not pushed').to.equal(before);
    expect(await view.findByRole('heading', { name: 'Sign in to your team' })).to.exist;
  });
});
