import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/react';
import ActivityPage from '../../../../src/features/account/activity-page';
import AppsPage from '../../../../src/features/account/apps-page';
import ConsentPage from '../../../../src/features/account/consent-page';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady, signInAs } from '../../support';

before(serverReady);
afterEach(logoutEverywhere);

interface Seen {
  method: string;
  path: string;
  body: unknown;
}

/**
 * Answers the given API paths itself and lets every other request reach the server. The unit tests'
 * server has no OpenID client, so no grant or consent question of the provider exists there: the code
 * flow that makes them is driven for real in test/server/oidc-provider.test.ts and the e2e test.
 */
function answering(answers: Record<string, (method: string) => Response>) {
  const realFetch = window.fetch;
  const seen: Seen[] = [];
  window.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    const method = init?.method ?? 'GET';
    const answer = answers[url.pathname];
    if (!answer) return realFetch(input, init);
    seen.push({ method, path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : null });
    return Promise.resolve(answer(method));
  };
  return { seen, restore: () => (window.fetch = realFetch) };
}

const partner = {
  id: 'partner-board',
  name: 'Partner Board',
  thirdParty: true,
  scopes: ['email', 'offline_access'],
  lastUsedAt: new Date(Date.now() - 3 * 60_000).toISOString(),
};

describe('connected apps screen', () => {
  it('says when no app has access (the real server, nothing granted); axe-clean', async () => {
    await signInAs('ada@acme.test');
    const { view, container } = await renderWithElement(<AppsPage />);
    expect(await view.findByText('No apps have access to your account.')).to.exist;
    await expectNoAxeViolations(container);
  });

  it('lists an app with what it may do, and removes its access after asking', async () => {
    await signInAs('ada@acme.test');
    let removed = false;
    const stub = answering({
      '/api/user/apps': () => Response.json({ apps: removed ? [] : [partner] }),
      '/api/user/apps/partner-board': () => {
        removed = true;
        return new Response(null, { status: 204 });
      },
    });
    try {
      const { view, container } = await renderWithElement(<AppsPage />);
      expect(await view.findByText('Partner Board')).to.exist;
      expect(view.getByText('Third-party app')).to.exist;
      expect(view.getByText('See your email address')).to.exist;
      expect(view.getByText('Keep you signed in')).to.exist;
      expect(view.getByText('Last used 3 minutes ago')).to.exist;
      await expectNoAxeViolations(container);

      fireEvent.click(view.getByRole('button', { name: 'Remove access for Partner Board' }));
      const dialog = within(
        await view.findByRole('alertdialog', { name: 'Remove access for Partner Board?' }),
      );
      expect(removed, 'nothing removed before the answer').to.equal(false);
      fireEvent.click(dialog.getByRole('button', { name: 'Remove access' }));
      expect(await view.findByText('No apps have access to your account.')).to.exist;
      expect(stub.seen.some((call) => call.method === 'DELETE')).to.equal(true);
    } finally {
      stub.restore();
    }
  });
});

describe('consent screen', () => {
  it('says a question that is not open (the real server: no such interaction)', async () => {
    await signInAs('ada@acme.test');
    const { view } = await renderWithElement(<ConsentPage go={() => undefined} />, {
      route: '/consent/no-such-request',
    });
    expect(await view.findByRole('heading', { level: 1, name: 'This request is no longer open' })).to.exist;
  });

  for (const [button, allow] of [
    ['Allow', true],
    ['Deny', false],
  ] as const) {
    it(`shows the app, the team and what it asks for; “${button}” answers and goes on`, async () => {
      await signInAs('ada@acme.test');
      const stub = answering({
        '/api/oidc/consent/uid-1': (method) =>
          method === 'GET'
            ? Response.json({ app: 'Partner Board', team: 'Acme Corp', scopes: ['profile', 'email'] })
            : Response.json({ redirectTo: `${location.origin}/oidc/auth/uid-1` }),
      });
      const went: string[] = [];
      try {
        const { view, container } = await renderWithElement(
          <ConsentPage go={(address) => went.push(address)} />,
          { route: '/consent/uid-1' },
        );
        const title = 'Allow Partner Board to use your account?';
        expect(await view.findByRole('heading', { level: 1, name: title })).to.exist;
        expect(view.getByText('Partner Board wants to sign you in with your account at Acme Corp.')).to.exist;
        expect(view.getByText('Partner Board will be able to:')).to.exist;
        for (const text of ['Know who you are', 'See your name, team and groups', 'See your email address'])
          expect(view.getByText(text)).to.exist;
        await expectNoAxeViolations(container);
        fireEvent.click(view.getByRole('button', { name: button }));
        await waitFor(() => expect(went).to.deep.equal([`${location.origin}/oidc/auth/uid-1`]));
        expect(stub.seen.find((call) => call.method === 'POST')?.body).to.deep.equal({ allow });
      } finally {
        stub.restore();
      }
    });
  }
});

describe('the security log', () => {
  it('names the app a user let in, and the one whose access they removed', async () => {
    await signInAs('ada@acme.test');
    const at = new Date(Date.now() - 60_000).toISOString();
    const stub = answering({
      '/api/user/activity': () =>
        Response.json({
          events: [
            { id: '2', kind: 'appAccessRemoved', at, app: 'Partner Board' },
            { id: '1', kind: 'appAllowed', at, app: 'Partner Board' },
          ],
          next: null,
        }),
    });
    try {
      for (const [language, removed, allowed] of [
        ['en', 'Access removed for Partner Board', 'Partner Board allowed to access your account'],
        ['fr', 'Accès retiré pour Partner Board', 'Accès à votre compte autorisé pour Partner Board'],
      ] as const) {
        const { view, container, unmount } = await renderWithElement(<ActivityPage />, { language });
        expect(await view.findByText(removed)).to.exist;
        expect(view.getByText(allowed)).to.exist;
        await expectNoAxeViolations(container);
        unmount();
      }
    } finally {
      stub.restore();
    }
  });
});
