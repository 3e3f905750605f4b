import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/react';
import StreamingPage from '../../../../src/features/team/streaming-page';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady, signInAs } from '../../support';

before(serverReady);
afterEach(logoutEverywhere);

const ROUTE = '/manage/team/streaming';

/** Ada (an owner of acme) on the event streaming screen with the add dialog open. */
async function addDialog() {
  await signInAs('ada@acme.test');
  const { view, container } = await renderWithElement(<StreamingPage />, { route: ROUTE });
  await view.findByRole('region', { name: 'Event streaming' });
  fireEvent.click(await view.findByRole('button', { name: 'Add an endpoint' }));
  const dialog = within(await view.findByRole('dialog', { name: 'Add a streaming endpoint' }));
  return { view, container, dialog };
}

const urlField = (dialog: ReturnType<typeof within>) => dialog.getByRole('textbox', { name: 'Endpoint URL' });

describe('the event streaming screen (component)', () => {
  it('add: an empty address is refused before any call, plain http by the server, at the field; axe-clean', async () => {
    const { dialog, container } = await addDialog();
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    expect(urlField(dialog).getAttribute('aria-invalid')).to.equal('true');
    expect(dialog.getByText('Enter the endpoint’s URL.')).to.exist;
    fireEvent.change(urlField(dialog), { target: { value: 'http://siem.example.com/in' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    expect(await dialog.findByText(/Use an https:\/\/ address/)).to.exist;
    await expectNoAxeViolations(container);
  });

  it('shows the secret once, lists the endpoint, pauses and resumes it, and removes it after confirming', async () => {
    const endpoint = `siem-${Date.now()}.example.test/in`;
    const { view, container, dialog } = await addDialog();
    fireEvent.change(urlField(dialog), { target: { value: `https://${endpoint}` } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    const shown = within(await view.findByRole('dialog', { name: `Signing secret for ${endpoint}` }));
    const secret = (shown.getByRole('textbox', { name: 'Signing secret' }) as HTMLInputElement).value;
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(shown.getByRole('button', { name: 'Copy secret' })).to.exist;
    await expectNoAxeViolations(container);
    fireEvent.click(shown.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    expect(view.queryByText(secret)).to.equal(null, 'the secret is not shown again');

    const row = () => within(view.getByText(endpoint).closest('li')!);
    expect(row().getByText('Receiving events')).to.exist;
    fireEvent.click(row().getByRole('button', { name: `Pause ${endpoint}` }));
    const pause = within(await view.findByRole('alertdialog', { name: `Pause ${endpoint}?` }));
    fireEvent.click(pause.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(row().getByText('Paused')).to.exist);
    fireEvent.click(row().getByRole('button', { name: `Resume ${endpoint}` }));
    await waitFor(() => expect(row().getByText('Receiving events')).to.exist);

    fireEvent.click(row().getByRole('button', { name: `Remove ${endpoint}` }));
    const remove = within(await view.findByRole('alertdialog', { name: `Remove ${endpoint}?` }));
    fireEvent.click(remove.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(view.queryByText(endpoint)).to.equal(null));
  });

  it('tells a member who is no admin why, with nothing to act on', async () => {
    await signInAs('bob@acme.test');
    const { view } = await renderWithElement(<StreamingPage />, { route: ROUTE });
    await view.findByText(/not an admin|administrator/i);
    expect(view.queryByRole('button', { name: 'Add an endpoint' })).to.equal(null);
  });

  it('speaks the member’s language', async () => {
    await signInAs('ada@acme.test');
    const { view } = await renderWithElement(<StreamingPage />, { route: ROUTE, language: 'de' });
    expect(await view.findByRole('region', { name: 'Event-Streaming' })).to.exist;
    expect(view.getByRole('button', { name: 'Endpunkt hinzufügen' })).to.exist;
  });
});
