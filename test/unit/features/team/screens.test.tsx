import { expect } from 'chai';
import { fireEvent, within } from '@testing-library/react';
import GroupPage from '../../../../src/features/team/group-page';
import TeamPage from '../../../../src/features/team/team-page';
import UserPage from '../../../../src/features/team/user-page';
import { expectNoAxeViolations, renderWithElement } from '../../render';

/** The team screens of the manage area, each as a component test with one axe check. */
describe('team screens (component)', () => {
  it('Manage team: its four panels by name, the limit bars and the switches; axe-clean', async () => {
    const { view, container } = await renderWithElement(<TeamPage />);
    for (const name of ['Team management', 'Pending invites', 'Login options', 'Support'])
      expect(view.getByRole('region', { name }), name).to.exist;
    const team = within(view.getByRole('region', { name: 'Team management' }));
    expect(team.getByRole('progressbar', { name: 'User limit' }).getAttribute('aria-valuenow')).to.equal(
      '90',
    );
    expect(team.getByRole('progressbar', { name: 'Storage limit' })).to.exist;
    const google = view.getByRole('switch', { name: 'Sign in with Google' });
    fireEvent.click(google);
    expect(google.getAttribute('aria-checked')).to.equal('false');
    await expectNoAxeViolations(container);
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
});
