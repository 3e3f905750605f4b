import { expect } from 'chai';
import { within } from '@testing-library/react';
import { forgetCapturedTokens } from '../../../../src/features/token/fragment';
import TokenForm from '../../../../src/features/token/token-form';
import TokenSuccess from '../../../../src/features/token/token-success';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { fakeJwt, logoutEverywhere, serverReady, signInAs } from '../../support';

const page = location.href;

before(serverReady);

/** The developer tools' two screens (spec §2), each as a component test with one axe check. */
describe('developer tools screens (component)', () => {
  afterEach(async () => {
    history.replaceState(null, '', page);
    forgetCapturedTokens();
    await logoutEverywhere();
  });

  it('the form: a checkbox per policy from the server in a named group, and Generate; axe-clean', async () => {
    await signInAs('ada@acme.test');
    const { view, container } = await renderWithElement(<TokenForm />, { route: '/manage/dev' });
    // The texts come in their own part: the panel shows once they are in.
    const panel = within(await view.findByRole('region', { name: 'Developer tools' }));
    expect(panel.getByRole('link', { name: 'API documentation (opens in a new tab)' })).to.exist;
    const policies = within(await panel.findByRole('group', { name: 'Policies' }));
    expect(policies.getByRole('checkbox', { name: /^Job_Read\b/ })).to.have.property('value', 'Job_Read');
    expect(policies.getAllByRole('checkbox').length).to.be.greaterThan(1);
    expect(panel.getByRole('button', { name: 'Generate access token' })).to.exist;
    await expectNoAxeViolations(container);
  });

  it('the success page: the two read-only tokens by label, their copy buttons and the way back; axe-clean', async () => {
    const access = fakeJwt({ scope: 'Job_Read Reports_Read', exp: Date.now() / 1000 + 3600 });
    const id = fakeJwt({ sub: 'ada' });
    history.replaceState(null, '', `${location.pathname}#access_token=${access}&id_token=${id}`);
    const { view, container } = await renderWithElement(<TokenSuccess />, { route: '/manage/dev/success' });
    const panel = within(await view.findByRole('region', { name: 'Your tokens' }));
    const accessBox = panel.getByRole('textbox', { name: 'Access token' }) as HTMLTextAreaElement;
    expect([accessBox.value, accessBox.readOnly]).to.deep.equal([access, true]);
    const idBox = panel.getByRole('textbox', { name: 'ID token' }) as HTMLTextAreaElement;
    expect([idBox.value, idBox.readOnly]).to.deep.equal([id, true]);
    expect(panel.getByRole('button', { name: 'Copy access token' })).to.exist;
    expect(panel.getByRole('button', { name: 'Copy ID token' })).to.exist;
    expect(panel.getByText('Job_Read, Reports_Read')).to.exist;
    expect(panel.getByRole('link', { name: 'Generate new tokens' }).getAttribute('href')).to.equal(
      '/manage/dev',
    );
    await expectNoAxeViolations(container);
  });
});
