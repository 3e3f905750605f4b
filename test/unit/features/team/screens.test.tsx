import { expect } from 'chai';
import { fireEvent, within } from '@testing-library/react';
import GroupPage from '../../../../src/features/team/group-page';
import TeamPage from '../../../../src/features/team/team-page';
import UserPage from '../../../../src/features/team/user-page';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady, signInAs } from '../../support';

before(serverReady);
afterEach(logoutEverywhere);

/** The team screens of the manage area, each as a component test with one axe check. */
describe('team screens (component)', () => {
  it('Manage team: its panels by name with the team’s data from the server; axe-clean', async () => {
    await signInAs('ada@acme.test');
    const { view, container } = await renderWithElement(<TeamPage />, { route: '/manage/team' });
    const team = within(await view.findByRole('region', { name: 'Team management' }));
    for (const name of ['Pending invites', 'Sign-in options', 'Support', 'Recent admin actions'])
      expect(view.getByRole('region', { name }), name).to.exist;
    expect(team.getByText('90/100 GB used')).to.exist;
    expect(team.getByRole('progressbar', { name: 'Storage limit' }).getAttribute('aria-valuenow')).to.equal(
      '90',
    );
    expect(team.getByRole('progressbar', { name: 'User limit' })).to.exist;
    // Each method by the name the sign-in page's buttons give it (acme's Auth0 connection: Acme SSO).
    expect(
      view.getAllByRole('switch').map((toggle: HTMLElement) => toggle.getAttribute('aria-label')),
    ).to.deep.equal([
      'Password',
      'Google',
      'Microsoft',
      'Apple',
      'Acme SSO',
      'Passkeys',
      'Sign-in with an email code',
      'Require two-step sign-in',
    ]);
    expect(view.getByRole('switch', { name: 'Google' }).getAttribute('aria-checked')).to.equal('true');
    expect(view.getByRole('switch', { name: 'Passkeys' }).getAttribute('aria-checked')).to.equal('true');
    expect(view.getByText('Priya Natarajan')).to.exist;
    await view.findByText(/^(No pending invitations\.|Sent .*|Expires .*|Expired)$/);
    await expectNoAxeViolations(container);
  });

  it('Manage team: a member the server refuses (403) is told why, not shown an error', async () => {
    await signInAs('bob@acme.test');
    const { view } = await renderWithElement(<TeamPage />, { route: '/manage/team' });
    expect(await view.findByText('You need to be a team admin (owner or administrator) to open this page.'))
      .to.exist;
    expect(view.queryByRole('region', { name: 'Team management' })).to.equal(null);
  });

  it('Manage user: the search field follows ?q=; without a session the list says it failed, with a retry; axe-clean', async () => {
    const { view, container } = await renderWithElement(<UserPage />, { route: '/manage/user?q=bo' });
    const users = within(await view.findByRole('region', { name: 'Users' }));
    expect((users.getByRole('searchbox', { name: 'Search members' }) as HTMLInputElement).value).to.equal(
      'bo',
    );
    expect(users.getByRole('link', { name: 'Invite a member' }).getAttribute('href')).to.equal(
      '/manage/team?invite=1',
    );
    await users.findByRole('button', { name: 'Try again' });
    await expectNoAxeViolations(container);
  });

  it('Manage group: an empty name is refused at the field before any call; axe-clean', async () => {
    const { view, container } = await renderWithElement(<GroupPage />, {
      theme: 'dark',
      route: '/manage/group',
    });
    const groups = within(await view.findByRole('region', { name: 'Groups' }));
    fireEvent.click(groups.getByRole('button', { name: 'Create group' }));
    const field = groups.getByRole('textbox', { name: 'New group name' });
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    expect(groups.getByText('Enter a group name.')).to.exist;
    await groups.findByRole('button', { name: 'Try again' });
    await expectNoAxeViolations(container);
  });

  it('Manage group: a name past the server’s 50 characters is kept whole and refused at the field', async () => {
    const { view } = await renderWithElement(<GroupPage />, { route: '/manage/group' });
    const groups = within(await view.findByRole('region', { name: 'Groups' }));
    const field = groups.getByRole('textbox', { name: 'New group name' }) as HTMLInputElement;
    expect(field.maxLength).to.equal(-1);
    fireEvent.change(field, { target: { value: 'g'.repeat(40) } });
    expect(groups.getByText('10 characters left')).to.exist;
    fireEvent.change(field, { target: { value: 'g'.repeat(60) } });
    expect(field.value).to.have.length(60);
    expect(groups.getByText('10 characters too many')).to.exist;
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    fireEvent.click(groups.getByRole('button', { name: 'Create group' }));
    expect(groups.getByText('A group name cannot be more than 50 characters.')).to.exist;
  });
});
