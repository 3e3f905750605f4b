import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/react';
import AppsPage from '../../../../src/features/team/apps-page';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady, signInAs } from '../../support';

before(serverReady);
afterEach(logoutEverywhere);

/** Ada (an owner of acme) on the team apps screen with the register dialog open. */
async function registerDialog() {
  await signInAs('ada@acme.test');
  const { view, container } = await renderWithElement(<AppsPage />, { route: '/manage/team/apps' });
  await view.findByRole('region', { name: 'Registered apps' });
  fireEvent.click(await view.findByRole('button', { name: 'Register an app' }));
  const dialog = within(await view.findByRole('dialog', { name: 'Register an app' }));
  return { view, container, dialog };
}

const field = (dialog: ReturnType<typeof within>, name: string) =>
  dialog.getByRole('textbox', { name }) as HTMLInputElement;

describe('the team apps screen (component)', () => {
  it('lists the team’s apps with kind, client ID, status and last use; axe-clean', async () => {
    await signInAs('ada@acme.test');
    const { view, container } = await renderWithElement(<AppsPage />, { route: '/manage/team/apps' });
    const list = within(await view.findByRole('list', { name: 'Registered apps' }));
    // The seeded machine app of acme.
    expect(list.getAllByText('Machine to machine').length).to.be.greaterThan(0);
    expect(list.getAllByText('Client ID').length).to.be.greaterThan(0);
    expect(list.getAllByRole('button', { name: /^Copy the client ID of / }).length).to.be.greaterThan(0);
    await expectNoAxeViolations(container);
  });

  it('register: problems at the fields they concern, before any call, focus on the first', async () => {
    const { dialog, container } = await registerDialog();
    fireEvent.click(dialog.getByRole('radio', { name: /^Single-page app/ }));
    fireEvent.change(field(dialog, 'Redirect address 1'), { target: { value: 'http://spa.example.com/cb' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add an address after sign-out' }));
    fireEvent.change(field(dialog, 'Address after sign-out 1'), {
      target: { value: 'https://spa.example.com/#out' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Register' }));

    const name = field(dialog, 'Name');
    expect(name.getAttribute('aria-invalid')).to.equal('true');
    expect(dialog.getByText('Enter a name for the app.')).to.exist;
    const redirect = field(dialog, 'Redirect address 1');
    expect(redirect.getAttribute('aria-invalid')).to.equal('true');
    expect(redirect.getAttribute('aria-describedby')).to.contain(
      dialog.getByText(/^Use https\. Plain http is only for localhost/).id,
    );
    expect(field(dialog, 'Address after sign-out 1').getAttribute('aria-invalid')).to.equal('true');
    expect(dialog.getByText(/^Remove the part from # on/)).to.exist;
    expect((name.getRootNode() as ShadowRoot | Document).activeElement).to.equal(name);
    // Nothing typed is lost.
    expect(redirect.value).to.equal('http://spa.example.com/cb');
    await expectNoAxeViolations(container);
  });

  it('register: the server’s refusal of the name is shown at the name, the addresses kept', async () => {
    const { dialog } = await registerDialog();
    fireEvent.click(dialog.getByRole('radio', { name: /^Single-page app/ }));
    // A control character: only the server's rule refuses it.
    fireEvent.change(field(dialog, 'Name'), { target: { value: 'Bell\u0007app' } });
    fireEvent.change(field(dialog, 'Redirect address 1'), {
      target: { value: 'https://spa.example.com/cb' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Register' }));
    const problem = await dialog.findByText(
      'Enter a name of 1 to 50 characters, without control characters.',
    );
    expect(field(dialog, 'Name').getAttribute('aria-describedby')).to.contain(problem.id);
    expect(field(dialog, 'Redirect address 1').value).to.equal('https://spa.example.com/cb');
  });

  it('a web app’s secret shows once; after confirming a new one, the dialog shows the new secret', async () => {
    const { view, dialog } = await registerDialog();
    fireEvent.change(field(dialog, 'Name'), { target: { value: 'Unit web app' } });
    fireEvent.change(field(dialog, 'Redirect address 1'), {
      target: { value: 'https://web.example.com/callback' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Register' }));
    const shown = within(await view.findByRole('dialog', { name: 'Client secret of Unit web app' }));
    expect(shown.getByText(/you won’t see it again/)).to.exist;
    expect((shown.getByRole('textbox', { name: 'Client secret' }) as HTMLInputElement).value).to.match(
      /^\S{20,}$/,
    );
    expect(shown.getByRole('button', { name: 'Copy secret' })).to.exist;
    expect(shown.getByRole('button', { name: 'Copy client ID' })).to.exist;
    const first = (shown.getByRole('textbox', { name: 'Client secret' }) as HTMLInputElement).value;
    fireEvent.click(shown.getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(view.queryByRole('dialog', { name: 'Client secret of Unit web app' })).to.equal(null),
    );

    // A new secret after confirming: the dialog shows again, with another secret.
    fireEvent.click(view.getAllByRole('button', { name: 'New secret for Unit web app' })[0]!);
    const ask = within(await view.findByRole('alertdialog', { name: 'New secret for Unit web app?' }));
    fireEvent.click(ask.getByRole('button', { name: 'Make a new secret' }));
    const again = within(await view.findByRole('dialog', { name: 'Client secret of Unit web app' }));
    const second = (again.getByRole('textbox', { name: 'Client secret' }) as HTMLInputElement).value;
    expect(second).to.match(/^\S{20,}$/);
    expect(second).to.not.equal(first);
  });
});
