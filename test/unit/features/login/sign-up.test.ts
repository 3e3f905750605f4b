import { expect } from 'chai';
import { mount, screenOf, serverReady } from '../../support';

// The first request of a run starts the identity server.
before(serverReady);

// The runtime settings block must be in the page before the first element reads it.
const env = document.createElement('script');
env.type = 'application/json';
env.id = 'acct-env';
env.textContent = JSON.stringify({ signUpUrl: 'https://example.test/join' });
document.head.append(env);
await import('../../../../src/index');

describe('<acct-login>: team entry with a sign-up address', () => {
  it('shows the "or" divider and a Register link to the configured address', async () => {
    const view = await screenOf(mount('<acct-login></acct-login>'));
    await view.findByLabelText('Team name');
    expect(view.getByRole('separator').textContent).to.equal('or');
    expect(view.getByRole('link', { name: 'Register' }).getAttribute('href')).to.equal(
      'https://example.test/join',
    );
  });
});
