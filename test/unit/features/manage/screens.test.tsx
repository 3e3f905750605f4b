import { expect } from 'chai';
import { within } from '@testing-library/react';
import ManageArea from '../../../../src/features/manage/manage-area';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady, signInAs } from '../../support';

before(serverReady);
afterEach(logoutEverywhere);

/**
 * The manage screen (spec §2) as a component test with one axe check: the area's navigation and
 * heading, and the personal info, password and third-party panels of a signed-in user, from the real
 * server.
 */
describe('manage screen (component)', () => {
  it('shows the navigation, personal info, the password and the third-party accounts; axe-clean', async () => {
    await signInAs('ada@acme.test');
    const { view, container } = await renderWithElement(<ManageArea standalone />, { route: '/manage' });
    const nav = within(view.getByRole('navigation', { name: 'Account' }));
    expect(nav.getByRole('link', { name: 'Personal info' }).getAttribute('aria-current')).to.equal('page');
    expect(nav.getByRole('link', { name: 'QR code sign-in' })).to.exist;
    expect(view.getByRole('heading', { level: 1, name: 'Personal info' })).to.exist;

    // The panel is named by the screen's heading.
    const info = within(view.getByRole('region', { name: 'Personal info' }));
    expect(info.getByText('ada@acme.test')).to.exist;
    expect(info.getByText('Ada Lovelace')).to.exist;
    expect(info.getByRole('button', { name: 'Edit name' })).to.exist;
    expect(await info.findByText('Owner')).to.exist;

    const password = within(view.getByRole('region', { name: 'Password' }));
    expect(await password.findByRole('button', { name: 'Change password' })).to.exist;
    expect(password.getByLabelText('Password hidden')).to.exist;

    const external = within(view.getByRole('region', { name: 'Third-party accounts' }));
    expect(external.getByRole('button', { name: 'Disconnect Google' })).to.exist;
    expect(external.getByRole('button', { name: 'Connect Microsoft' })).to.exist;
    expect(external.getByRole('button', { name: 'Connect Acme SSO' })).to.exist;
    await expectNoAxeViolations(container);
  });

  it('lists Team, Users and Groups for a team admin only; a member gets the need-admin screen', async () => {
    await signInAs('ada@acme.test');
    const admin = await renderWithElement(<ManageArea standalone />, { route: '/manage' });
    const adminNav = within(admin.view.getByRole('navigation', { name: 'Account' }));
    expect((await adminNav.findByRole('link', { name: 'Team' })).getAttribute('href')).to.equal(
      '/manage/team',
    );
    expect(adminNav.getByRole('link', { name: 'Users' }).getAttribute('href')).to.equal('/manage/user');
    expect(adminNav.getByRole('link', { name: 'Groups' }).getAttribute('href')).to.equal('/manage/group');
    admin.unmount();
    await logoutEverywhere();

    await signInAs('bob@acme.test');
    for (const section of ['team', 'user', 'group']) {
      const member = await renderWithElement(<ManageArea standalone />, { route: `/manage/${section}` });
      expect(
        await member.view.findByText(
          'You need to be a team admin (owner or administrator) to open this page.',
        ),
      ).to.exist;
      const nav = within(member.view.getByRole('navigation', { name: 'Account' }));
      for (const name of ['Team', 'Users', 'Groups'])
        expect(nav.queryByRole('link', { name }), name).to.equal(null);
      await expectNoAxeViolations(member.container);
      member.unmount();
    }
  });
});
