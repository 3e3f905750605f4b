import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/dom';
import { lazy } from 'react';
import { define, elementClass } from '../../../../src/elements/define';
import { mount, screenOf } from '../../support';

// The team screen on its own, in a real element (shadow root, shared styles, translations).
define('test-team-page', elementClass(lazy(() => import('../../../../src/features/team/team-page'))));

afterEach(() => document.body.replaceChildren());

async function teamPage(lang = 'en') {
  const view = await screenOf(mount(`<test-team-page lang="${lang}"></test-team-page>`));
  await view.findByRole('heading', { name: lang === 'en' ? 'Team management' : 'Teamverwaltung' });
  return view;
}

describe('Manage team (spec §2, static sample data)', () => {
  it('shows the user- and storage-limit bars with the sample texts and the tone of 90 %', async () => {
    const view = await teamPage();
    const users = view.getByRole('progressbar', { name: 'User limit' });
    const storage = view.getByRole('progressbar', { name: 'Storage limit' });
    expect(users.getAttribute('aria-valuenow')).to.equal('90');
    expect(users.getAttribute('aria-valuetext')).to.equal('90/100 users');
    expect(storage.getAttribute('aria-valuetext')).to.equal('90/100Gb used..');
    expect(view.getByText('90/100 users')).to.exist;
    expect(view.getByText('90/100Gb used..')).to.exist;
    // Spec §4: negative at 90 and above.
    for (const bar of [users, storage]) {
      expect(bar.classList.contains('limit-negative'), bar.getAttribute('aria-label')!).to.equal(true);
      const fill = getComputedStyle(bar.querySelector('span')!);
      expect(fill.width).to.not.equal('0px');
      expect(fill.backgroundColor).to.not.equal('rgba(0, 0, 0, 0)');
    }
    expect(view.getByRole('button', { name: 'Manage user limit' })).to.exist;
  });

  it('lists the pending invites, expiring ones in the error style, and removes a row on close', async () => {
    const view = await teamPage();
    const invites = within(
      view.getByRole('heading', { name: 'Pending invites' }).closest('section') as HTMLElement,
    );
    expect(invites.getAllByRole('listitem')).to.have.length(3);
    expect(invites.getByText('Sent - 2 Hours Ago').className).to.equal('hint');
    expect(invites.getByText('Expires - 4 days').className).to.equal('field-error');
    expect(invites.getByText('Expires - Tomorrow').className).to.equal('field-error');
    expect(invites.getAllByRole('button', { name: 'Resend' })).to.have.length(3);
    fireEvent.click(invites.getByRole('button', { name: 'Remove the invite for jo.lee@example.com' }));
    await waitFor(() => expect(invites.getAllByRole('listitem')).to.have.length(2));
    expect(invites.queryByText('jo.lee@example.com')).to.equal(null);
    expect(invites.queryByText('Expires - Tomorrow')).to.equal(null);
    expect(invites.getByText('sam.taylor@example.com')).to.exist;
  });

  it('switches the login-option toggles', async () => {
    const view = await teamPage();
    const state = (name: string) => view.getByRole('switch', { name }).getAttribute('aria-checked');
    expect(state('Email and password')).to.equal('true');
    expect(state('Sign in with Google')).to.equal('true');
    expect(state('Microsoft login')).to.equal('false');
    expect(state('Sign in with Apple')).to.equal('false');
    fireEvent.click(view.getByRole('switch', { name: 'Sign in with Apple' }));
    await waitFor(() => expect(state('Sign in with Apple')).to.equal('true'));
    fireEvent.click(view.getByRole('switch', { name: 'Email and password' }));
    await waitFor(() => expect(state('Email and password')).to.equal('false'));
    expect(state('Sign in with Google'), 'the others stay').to.equal('true');
  });

  it('shows the support panel: account manager, email and contact number', async () => {
    const view = await teamPage();
    const support = within(view.getByRole('heading', { name: 'Support' }).closest('section') as HTMLElement);
    expect(support.getByText('Account manager')).to.exist;
    expect(support.getByText('Jordan Avery')).to.exist;
    const email = support.getByRole('link', { name: 'jordan.avery@example.com' });
    expect(email.getAttribute('href')).to.equal('mailto:jordan.avery@example.com');
    const phone = support.getByRole('link', { name: '+44 20 7946 0018' });
    expect(phone.getAttribute('href')).to.equal('tel:+442079460018');
  });

  it('reads naturally in another language (de)', async () => {
    const view = await teamPage('de');
    expect(view.getByText('Gesendet - vor 2 Stunden')).to.exist;
    expect(view.getByText('Läuft ab - in 4 Tagen')).to.exist;
    expect(view.getByText('Läuft ab - morgen')).to.exist;
    expect(view.getByRole('progressbar', { name: 'Speicherlimit' }).getAttribute('aria-valuetext')).to.match(
      /^90\/100 GB belegt$/,
    );
  });
});
