import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/react';
import EventsPage, { dayRange } from '../../../../src/features/team/events-page';
// The screens' rules, which the manage area adds as it loads.
import '../../../../src/styles/screens-sheet';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady, signInAs } from '../../support';

before(serverReady);
afterEach(logoutEverywhere);

const ROUTE = '/manage/team/events';

/** Today in the browser's calendar, as a date field holds it. */
function today(offsetDays = 0): string {
  const day = new Date();
  day.setDate(day.getDate() + offsetDays);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** The demo's password (demo/server/db/seed.ts; the server's modules do not load in the browser). */
const DEMO_PASSWORD = 'portal-demo-pass';

/**
 * Ada (an owner of acme) on the event log, its first page shown, after a real sign-in with her password
 * (without this browser's cookies: only its event in the team's log matters here).
 */
async function eventLog(language: 'en' | 'ja' = 'en', theme: 'light' | 'dark' = 'light') {
  const login = await fetch('/account/login', {
    method: 'POST',
    credentials: 'omit',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ teamName: 'acme', email: 'ada@acme.test', password: DEMO_PASSWORD }),
  });
  expect(login.status).to.equal(200);
  await signInAs('ada@acme.test');
  const rendered = await renderWithElement(<EventsPage />, { route: ROUTE, language, theme });
  return rendered;
}

describe('the event log (component)', () => {
  it("lists the team's events as sentences with their time, newest first; axe-clean", async () => {
    const { view, container } = await eventLog();
    const list = within(await view.findByRole('list', { name: 'Team events' }));
    // Ada's own sign-in a moment ago is a member's security event of the team.
    const signedIn = list.getAllByText('Ada Lovelace signed in with a password');
    expect(signedIn.length).to.be.greaterThan(0);
    const times = [...container.querySelectorAll('ul.events time')].map((node) =>
      Date.parse(node.getAttribute('datetime')!),
    );
    expect(times.length).to.be.greaterThan(0);
    expect([...times].sort((a, b) => b - a)).to.deep.equal(times, 'newest first');
    // A team this small is all in the member filter: no search for members.
    expect(view.queryByRole('searchbox')).to.equal(null);
    await expectNoAxeViolations(container);
  });

  it('filters by type and refuses a range that ends before it starts', async () => {
    const { view } = await eventLog();
    await view.findByRole('list', { name: 'Team events' });
    fireEvent.change(view.getByRole('combobox', { name: 'Type' }), { target: { value: 'user' } });
    await waitFor(() => {
      const rows = within(view.getByRole('list', { name: 'Team events' })).getAllByRole('listitem');
      for (const row of rows) expect(row.textContent).to.match(/sign|two-step|passkey|password|recovery/i);
    });
    fireEvent.change(view.getByLabelText('From'), { target: { value: today(1) } });
    fireEvent.change(view.getByLabelText('To'), { target: { value: today(-1) } });
    expect((await view.findByRole('alert')).textContent).to.equal(
      'The end date must be on or after the start date.',
    );
    expect(view.getByLabelText('From').getAttribute('aria-invalid')).to.equal('true');
    fireEvent.click(view.getByRole('button', { name: 'Clear filters' }));
    await view.findByRole('list', { name: 'Team events' });
    expect((view.getByRole('combobox', { name: 'Type' }) as HTMLSelectElement).value).to.equal('');
  });

  it('finds the members of a big team that the member filter does not list at first', async () => {
    const made = await fetch('/__test/big-team');
    const { owner, last } = (await made.json()) as { owner: string; last: { name: string; email: string } };
    await signInAs(owner);
    const { view } = await renderWithElement(<EventsPage />, { route: ROUTE });
    const search = await view.findByRole('searchbox', { name: 'Find a member' });
    const select = view.getByRole('combobox', { name: 'Member' });
    const lastOption = `${last.name} (${last.email})`;
    // Everyone, then the first hundred by name: the last member is not among them.
    await waitFor(() => expect(within(select).getAllByRole('option')).to.have.length(101));
    expect(within(select).queryByRole('option', { name: lastOption })).to.equal(null);

    fireEvent.change(search, { target: { value: last.name } });
    const option = await within(select).findByRole('option', { name: lastOption });
    expect(view.getByText(`Members matching “${last.name}”:`).getAttribute('role')).to.equal('status');
    fireEvent.change(select, { target: { value: (option as HTMLOptionElement).value } });
    // The member has done nothing yet: the log says so for this filter.
    await view.findByText('No events match these filters.');

    // The chosen member stays listed when the search changes; a search that finds nobody says so.
    fireEvent.change(search, { target: { value: 'nobody-here' } });
    expect((await view.findByText('No members match “nobody-here”.')).getAttribute('role')).to.equal(
      'status',
    );
    expect((select as HTMLSelectElement).selectedOptions[0]?.textContent).to.equal(lastOption);
    await expectNoAxeViolations(view.getByRole('group', { name: 'Filter the events' }));

    // Clearing the filters empties the search too, and the first hundred are listed again.
    fireEvent.click(view.getByRole('button', { name: 'Clear filters' }));
    const fresh = await view.findByRole('searchbox', { name: 'Find a member' });
    expect((fresh as HTMLInputElement).value).to.equal('');
    const member = view.getByRole('combobox', { name: 'Member' }) as HTMLSelectElement;
    expect(member.value).to.equal('');
    await waitFor(() => expect(within(member).getAllByRole('option')).to.have.length(101));
  });

  it("draws the date fields' calendar button in the element's theme, not the system's", async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { view } = await eventLog('en', theme);
      await view.findByRole('list', { name: 'Team events' });
      for (const label of ['From', 'To'])
        expect(getComputedStyle(view.getByLabelText(label)).colorScheme, `${label}, ${theme}`).to.equal(
          theme,
        );
    }
  });

  it('asks for a range before exporting, then downloads the CSV the server made', async () => {
    const { view } = await eventLog();
    await view.findByRole('list', { name: 'Team events' });
    fireEvent.click(view.getByRole('button', { name: 'Download CSV' }));
    expect(await view.findByText('Choose a start and an end date to export.')).to.exist;

    const saved: Blob[] = [];
    const original = URL.createObjectURL.bind(URL);
    const click = HTMLAnchorElement.prototype.click;
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      saved.push(blob as Blob);
      return original(blob);
    };
    HTMLAnchorElement.prototype.click = function () {};
    try {
      fireEvent.change(view.getByLabelText('From'), { target: { value: today(-1) } });
      fireEvent.change(view.getByLabelText('To'), { target: { value: today() } });
      fireEvent.click(view.getByRole('button', { name: 'Download CSV' }));
      await waitFor(() => expect(saved).to.have.length(1));
    } finally {
      URL.createObjectURL = original;
      HTMLAnchorElement.prototype.click = click;
    }
    const text = await saved[0]!.text();
    expect(text.split('\r\n')[0]).to.equal(
      'id,type,time,actor_id,actor_name,actor_email,target,address,request_id,detail',
    );
    expect(text).to.include('user.signedIn');
  });

  it('reads in every language', async () => {
    const { view } = await eventLog('ja');
    expect(await view.findByRole('heading', { name: 'チームのイベント' })).to.exist;
    expect(view.getByRole('button', { name: 'CSV をダウンロード' })).to.exist;
    const list = within(await view.findByRole('list', { name: 'チームのイベント' }));
    expect(list.getAllByText('Ada Lovelace さんがサインインしました（パスワード）').length).to.be.greaterThan(
      0,
    );
  });
});

describe('dayRange: the days picked as instants', () => {
  it('runs from the start of the first day to the start of the day after the last', () => {
    const range = dayRange('2030-03-01', '2030-03-01');
    expect(range).to.not.equal('bad');
    const { from, to } = range as { from: string; to: string };
    expect(Date.parse(to) - Date.parse(from)).to.equal(24 * 3600_000);
    expect(new Date(from).getDate()).to.equal(1);
    expect(dayRange('', '')).to.deep.equal({ from: null, to: null });
    expect(dayRange('2030-03-02', '2030-03-01')).to.equal('bad');
  });
});
