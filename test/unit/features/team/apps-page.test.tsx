import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/react';
import AppsPage, { refusalProblems } from '../../../../src/features/team/apps-page';
import { sayWith } from '../../../../src/i18n/said';
import { ApiError } from '../../../../src/api/client';
import { loadLanguage } from '../../../../src/i18n/instance';
import { addTextPart } from '../../../../src/i18n/parts';
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

  it('a back-channel logout URL for every kind with sign-ins: checked, sent, shown again, cleared', async () => {
    const { view, dialog, container } = await registerDialog();
    const logoutField = () => dialog.queryByRole('textbox', { name: 'Back-channel logout URL' });
    for (const kind of [/^Single-page app/, /^Mobile or desktop app/, /^TV or device app/, /^Web app/]) {
      fireEvent.click(dialog.getByRole('radio', { name: kind }));
      expect(logoutField(), String(kind)).to.exist;
    }
    // A machine app has nobody signed in, so no session to end.
    fireEvent.click(dialog.getByRole('radio', { name: /^Machine to machine/ }));
    expect(logoutField()).to.equal(null);
    fireEvent.click(dialog.getByRole('radio', { name: /^Web app/ }));
    const hint = dialog.getByText(/sends a logout token to this address/);
    expect(logoutField()!.getAttribute('aria-describedby')).to.contain(hint.id);

    fireEvent.change(field(dialog, 'Name'), { target: { value: 'Unit logout app' } });
    fireEvent.change(field(dialog, 'Redirect address 1'), {
      target: { value: 'https://logout.example.com/callback' },
    });
    // Plain http to another machine: refused at the field, in words for an address the server calls.
    fireEvent.change(logoutField()!, { target: { value: 'http://logout.example.com/backchannel' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Register' }));
    const problem = dialog.getByText('Use https. Plain http is only for localhost.');
    expect(logoutField()!.getAttribute('aria-invalid')).to.equal('true');
    expect(logoutField()!.getAttribute('aria-describedby')).to.contain(problem.id);
    await expectNoAxeViolations(container);

    fireEvent.change(logoutField()!, { target: { value: 'https://logout.example.com/backchannel' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Register' }));
    const shown = within(await view.findByRole('dialog', { name: 'Client secret of Unit logout app' }));
    fireEvent.click(shown.getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(view.queryByRole('dialog', { name: 'Client secret of Unit logout app' })).to.equal(null),
    );

    // The server kept it: the edit form shows it; emptied and saved, the app has none.
    const edit = async () => {
      fireEvent.click(view.getAllByRole('button', { name: 'Edit Unit logout app' })[0]!);
      return within(await view.findByRole('dialog', { name: 'Edit Unit logout app' }));
    };
    let form = await edit();
    const stored = field(form, 'Back-channel logout URL');
    expect(stored.value).to.equal('https://logout.example.com/backchannel');
    fireEvent.change(stored, { target: { value: '' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.queryByRole('dialog', { name: 'Edit Unit logout app' })).to.equal(null));
    form = await edit();
    expect(field(form, 'Back-channel logout URL').value).to.equal('');
  });

  it('the server’s refusal of a back-channel logout URL is shown at its field', async () => {
    const { dialog } = await registerDialog();
    fireEvent.change(field(dialog, 'Name'), { target: { value: 'Unit long logout' } });
    fireEvent.change(field(dialog, 'Redirect address 1'), {
      target: { value: 'https://long.example.com/callback' },
    });
    // Longer than the server takes: only its schema counts an address's length.
    const long = `https://long.example.com/${'a'.repeat(2000)}`;
    fireEvent.change(field(dialog, 'Back-channel logout URL'), { target: { value: long } });
    fireEvent.click(dialog.getByRole('button', { name: 'Register' }));
    const problem = await dialog.findByText('An address cannot be more than 2,000 characters.');
    const logout = field(dialog, 'Back-channel logout URL');
    expect(logout.getAttribute('aria-describedby')).to.contain(problem.id);
    expect(logout.value).to.equal(long);
  });

  it('a server that does not post to localhost: its refusal is told at the logout field', async () => {
    // Only the server knows its mode: the screen's own check lets the address through.
    const refusal = new ApiError(400, 'refused', {
      code: 'loopbackLogoutUri',
      field: 'backchannelLogoutUri',
    });
    for (const [language, text] of [
      ['en', 'This site does not send logout tokens to localhost. Use an https address it can reach.'],
      [
        'de',
        'Diese Website sendet keine Logout-Tokens an localhost. Verwenden Sie eine https-Adresse, die sie erreichen kann.',
      ],
    ] as const) {
      const i18n = await loadLanguage(language);
      await addTextPart(i18n, 'admin');
      const { backchannelLogoutUri } = refusalProblems(refusal);
      expect(sayWith(i18n.getFixedT(language), backchannelLogoutUri!)).to.equal(text);
    }
  });
});
