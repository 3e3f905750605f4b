import { expect } from 'chai';
import { fireEvent, within } from '@testing-library/react';
import type { Member } from '../../../../src/api/members';
import type { TeamAdmin } from '../../../../src/api/team';
import { PermissionsDialog } from '../../../../src/features/team/member-dialogs';
import { SeatLimitDialog } from '../../../../src/features/team/seat-limit-dialog';
import { WithTextPart } from '../../../../src/i18n/parts';
import { renderWithElement } from '../../render';

/** A team as `GET /api/team` answers it, with the seats given. */
const teamWith = (seats: TeamAdmin['seats']): TeamAdmin => ({
  id: 't',
  name: 'acme',
  displayName: 'Acme',
  seats,
  storage: { usedBytes: 0, limitBytes: 1 },
  loginOptions: {
    local: true,
    google: false,
    azure: false,
    auth0: false,
    apple: false,
    requireTwoStep: false,
  },
  configured: { google: false, azure: false, auth0: false, apple: false },
  support: { name: null, email: null, phone: null },
  callerIsOwner: true,
  membersWithoutTwoStep: 0,
});

async function limitDialog(seats: TeamAdmin['seats'], language: 'en' | 'de' = 'en') {
  const { view } = await renderWithElement(
    <WithTextPart part="admin" waiting={null} failed={null}>
      <SeatLimitDialog open team={teamWith(seats)} onClose={() => {}} onSaved={() => {}} />
    </WithTextPart>,
    { language },
  );
  return within(await view.findByRole('dialog'));
}

describe('the user-limit dialog says the real numbers', () => {
  it('members, pending invitations (none said as such) and seats, each plural right', async () => {
    const none = await limitDialog({ used: 3, limit: 10, members: 3, pending: 0 });
    expect(none.getByText('The team has 3 members and no pending invitations. Seats in use: 3 of 10.')).to
      .exist;
  });

  it('one of each in the singular, in English and German', async () => {
    const one = await limitDialog({ used: 2, limit: 5, members: 1, pending: 1 });
    expect(one.getByText('The team has 1 member and 1 pending invitation. Seats in use: 2 of 5.')).to.exist;
    const de = await limitDialog({ used: 4, limit: 5, members: 1, pending: 3 }, 'de');
    expect(de.getByText('Das Team hat 1 Mitglied und 3 ausstehende Einladungen. Belegte Plätze: 4 von 5.')).to
      .exist;
  });
});

const bob: Member = {
  id: 'bob',
  name: 'Bob Stone',
  email: 'bob@acme.test',
  permissions: ['EDITOR'],
  methods: ['google'],
  lastSignInAt: null,
  disabled: false,
  groups: [],
  locked: null,
  twoStep: false,
};

describe('a member’s permissions with none checked', () => {
  it('warns what that means and says so on the save button', async () => {
    const { view } = await renderWithElement(
      <WithTextPart part="admin" waiting={null} failed={null}>
        <PermissionsDialog member={bob} open onSaved={() => {}} onClose={() => {}} />
      </WithTextPart>,
    );
    const dialog = within(await view.findByRole('dialog'));
    const warning =
      'With none checked, Bob Stone keeps their sign-in but has no permission in the team’s apps.';
    expect(dialog.queryByText(warning)).to.equal(null);
    expect(dialog.getByRole('button', { name: 'Save permissions' })).to.exist;
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Editor' }));
    expect(dialog.getByRole('status').textContent).to.equal(warning);
    expect(dialog.getByRole('button', { name: 'Save without permissions' })).to.exist;
  });
});
