import { expect } from 'chai';
import { fireEvent, within } from '@testing-library/react';
import GroupPage from '../../../../src/features/team/group-page';
import TeamPage from '../../../../src/features/team/team-page';
import UserPage from '../../../../src/features/team/user-page';
import { expectNoAxeViolations, renderWithElement } from '../../render';

/** The sample screens of the manage area (spec §2), each as a component test with one axe check. */
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

  it('Manage user: two named panels and four named icon buttons; axe-clean', async () => {
    const { view, container } = await renderWithElement(<UserPage />);
    expect(view.getByRole('region', { name: 'Something Else' })).to.exist;
    const users = within(view.getByRole('region', { name: 'Users' }));
    for (const name of ['Add user', 'User settings', 'Delete user', 'Add to group'])
      expect(users.getByRole('button', { name }), name).to.exist;
    await expectNoAxeViolations(container);
  });

  it('Manage group: its placeholder line; axe-clean', async () => {
    const { view, container } = await renderWithElement(<GroupPage />, { theme: 'dark' });
    expect(view.getByText('Groups will be managed here.')).to.exist;
    await expectNoAxeViolations(container);
  });
});
