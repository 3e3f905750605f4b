import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { useRef, useState } from 'react';
import { readCookie } from '../../../../src/api/client';
import type { Member } from '../../../../src/api/members';
import type { TeamAdmin } from '../../../../src/api/team';
import { ShownOnceDialog } from '../../../../src/features/team/admin-kit';
import { PermissionsDialog } from '../../../../src/features/team/member-dialogs';
import { SeatLimitDialog } from '../../../../src/features/team/seat-limit-dialog';
import { WithTextPart } from '../../../../src/i18n/parts';
import { noticesStore } from '../../../../src/state/notices';
import TeamPage from '../../../../src/features/team/team-page';
import UserPage from '../../../../src/features/team/user-page';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady, signInAs } from '../../support';

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
    passkeys: true,
    emailCode: false,
  },
  configured: { google: false, azure: false, auth0: false, apple: false },
  auth0DisplayName: 'Auth0',
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
        <PermissionsDialog
          member={bob}
          rules={{ self: false, callerIsOwner: true, soleOwner: false }}
          open
          onSaved={() => {}}
          onClose={() => {}}
        />
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

/** The permissions dialog of `member` under `rules`, opened. */
async function permissionsOf(member: Member, rules: Parameters<typeof PermissionsDialog>[0]['rules']) {
  const { view } = await renderWithElement(
    <WithTextPart part="admin" waiting={null} failed={null}>
      <PermissionsDialog member={member} rules={rules} open onSaved={() => {}} onClose={() => {}} />
    </WithTextPart>,
  );
  return within(await view.findByRole('dialog'));
}

describe('permission boxes the server would refuse to change are disabled, with the reason', () => {
  const ada: Member = { ...bob, id: 'ada', name: 'Ada Lovelace', permissions: ['OWNER'] };

  it('the only owner, editing herself: Owner cannot be cleared, and says why', async () => {
    const dialog = await permissionsOf(ada, { self: true, callerIsOwner: true, soleOwner: true });
    const owner = dialog.getByRole('checkbox', { name: /^Owner/ }) as HTMLInputElement;
    expect(owner.disabled).to.equal(true);
    const note = dialog.getByText('The team must keep an owner who is not disabled.');
    expect(owner.getAttribute('aria-describedby')).to.equal(note.id);
    expect((dialog.getByRole('checkbox', { name: /^Editor/ }) as HTMLInputElement).disabled).to.equal(false);
  });

  it('an owner with Administrator as well may drop one of the two, not both', async () => {
    const both: Member = { ...ada, permissions: ['ADMIN', 'OWNER'] };
    const dialog = await permissionsOf(both, { self: true, callerIsOwner: true, soleOwner: false });
    const admin = dialog.getByRole('checkbox', { name: /^Administrator/ }) as HTMLInputElement;
    const owner = dialog.getByRole('checkbox', { name: /^Owner/ }) as HTMLInputElement;
    expect([admin.disabled, owner.disabled]).to.deep.equal([false, false]);
    fireEvent.click(admin);
    expect(owner.disabled).to.equal(true);
    expect(dialog.getByText(/^You cannot disable or remove yourself/)).to.exist;
  });

  it('an administrator cannot grant Owner', async () => {
    const dialog = await permissionsOf(bob, { self: false, callerIsOwner: false, soleOwner: false });
    expect((dialog.getByRole('checkbox', { name: /^Owner/ }) as HTMLInputElement).disabled).to.equal(true);
    expect(dialog.getByText('Only a team owner can change or remove an owner.')).to.exist;
  });
});

describe('the users list (component, real server)', () => {
  before(serverReady);
  afterEach(logoutEverywhere);

  it('offers no action on yourself the server refuses: aria-disabled with the reason; axe-clean', async () => {
    await signInAs('ada@acme.test');
    const { view, container } = await renderWithElement(<UserPage />, { route: '/manage/user?q=ada' });
    const remove = await view.findByRole('button', { name: 'Remove Ada Lovelace' });
    expect(remove.getAttribute('aria-disabled')).to.equal('true');
    const note = view.getByText(
      'You cannot disable or remove yourself, nor drop your own administrator rights.',
    );
    expect(remove.getAttribute('aria-describedby')).to.equal(note.id);
    const disable = view.getByRole('button', { name: 'Disable Ada Lovelace' });
    expect(disable.getAttribute('aria-disabled')).to.equal('true');
    fireEvent.click(remove);
    expect(view.queryByRole('alertdialog')).to.equal(null);
    // Her permissions can still be edited (within the rules).
    expect(
      view.getByRole('button', { name: 'Edit permissions of Ada Lovelace' }).getAttribute('aria-disabled'),
    ).to.equal(null);
    await expectNoAxeViolations(container);
  });

  it('shows a locked member as locked, with an Unlock action, and who has two-step sign-in', async () => {
    await signInAs('ada@acme.test');
    const { view } = await renderWithElement(<UserPage />, { route: '/manage/user?q=lee' });
    await view.findByText('Locked by an administrator');
    expect(view.getByRole('button', { name: 'Unlock Lee Locke' })).to.exist;
    expect(view.getByText('Two-step sign-in')).to.exist;
    expect(view.getByText('Off')).to.exist;
  });

  it('says to sign in, not that admin rights are missing, when a session ended elsewhere (a real 403)', async () => {
    await signInAs('ada@acme.test');
    const { view } = await renderWithElement(<UserPage />, { route: '/manage/user?q=lee' });
    const unlock = await view.findByRole('button', { name: 'Unlock Lee Locke' });
    const xsrf = readCookie(document.cookie, 'XSRF-TOKEN')!;
    // Not this session's anti-forgery token, as after "sign out everywhere else" on another device: the
    // server refuses the unlock (and the session check it leads to), so Lee stays locked.
    document.cookie = 'XSRF-TOKEN=not-this-sessions-token; Path=/; Secure; SameSite=None';
    try {
      fireEvent.click(unlock);
      // The failure notice (the element's snackbar, not rendered here): what it says.
      const said = await waitFor(() => {
        const failed = noticesStore.getState().queue.find((notice) => notice.mode === 'Failure');
        if (!failed) throw new Error('no failure notice yet');
        return failed.message;
      });
      expect(said).to.deep.equal(['manage.signedOut']);
    } finally {
      noticesStore.setState({ queue: [] });
      document.cookie = `XSRF-TOKEN=${xsrf}; Path=/; Secure; SameSite=None`;
    }
  });
});

describe('requiring two-step sign-in (component, real server)', () => {
  before(serverReady);
  afterEach(logoutEverywhere);

  it('asks first, naming how many members will have to set it up; Cancel changes nothing', async () => {
    await signInAs('ada@acme.test');
    const { view } = await renderWithElement(<TeamPage />, { route: '/manage/team' });
    const toggle = await view.findByRole('switch', { name: 'Require two-step sign-in' });
    expect(toggle.getAttribute('aria-checked')).to.equal('false');
    fireEvent.click(toggle);
    const ask = within(await view.findByRole('alertdialog', { name: 'Require two-step sign-in?' }));
    expect(
      ask.getByText(
        /^\d+ members? ha(s|ve) not set up two-step sign-in yet and will have to at their next sign-in\.$/,
      ),
    ).to.exist;
    fireEvent.click(ask.getByRole('button', { name: 'Cancel' }));
    expect(toggle.getAttribute('aria-checked')).to.equal('false');
  });
});

/** A secret shown once, opened from its button, as the apps and directories screens do. */
function ShownOnce() {
  const [shown, setShown] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button ref={opener} type="button" onClick={() => setShown(true)}>
        Make a secret
      </button>
      {shown ? (
        <ShownOnceDialog
          title="Your secret"
          done="Done"
          onClose={() => setShown(false)}
          returnFocus={() => opener.current}
        >
          <p>s3cret</p>
        </ShownOnceDialog>
      ) : null}
    </>
  );
}

describe('a dialog shown once', () => {
  it('gives the focus back before it goes, however late its exit animation ends', async () => {
    // On a busy machine the dialog's exit timer (75 ms) can start well after the click. Here it ends
    // 60 ms late: going after a fixed delay, the dialog went before giving the focus back.
    expect(matchMedia('(prefers-reduced-motion: reduce)').matches).to.equal(false);
    const native = window.setTimeout;
    window.setTimeout = ((run: () => void, ms?: number) =>
      native(run, ms === 75 ? 135 : ms)) as typeof setTimeout;
    try {
      const { view } = await renderWithElement(<ShownOnce />);
      const opener = view.getByRole('button', { name: 'Make a secret' });
      opener.focus();
      fireEvent.click(opener);
      const dialog = await view.findByRole('dialog', { name: 'Your secret' });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
      await waitFor(() => expect(view.queryByRole('dialog', { hidden: true })).to.equal(null));
      const focused = (opener.getRootNode() as ShadowRoot).activeElement;
      expect(focused?.textContent ?? 'nothing').to.equal('Make a secret');
    } finally {
      window.setTimeout = native;
    }
  });
});
