import { expect } from 'chai';
import { fireEvent, waitFor } from '@testing-library/react';
import { Checklist } from '../../../../src/features/team/checklist';
import TeamPage from '../../../../src/features/team/team-page';
import { WithTextPart } from '../../../../src/i18n/parts';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady, signInAs } from '../../support';

before(serverReady);
afterEach(logoutEverywhere);

/** The first-steps checklist of a team a sign-up made (the journey itself: test/e2e/sign-up.test.ts). */
describe('the team’s first-steps checklist (component)', () => {
  it('leads to each step and is put away through the server; axe-clean', async () => {
    await signInAs('ada@acme.test');
    const calls: string[] = [];
    const { view, container } = await renderWithElement(
      <WithTextPart part="admin" waiting={null} failed={null}>
        <Checklist
          onInvite={() => calls.push('invite')}
          onMethods={() => calls.push('methods')}
          onDismissed={() => calls.push('dismissed')}
        />
      </WithTextPart>,
      { route: '/manage/team' },
    );
    expect(await view.findByRole('region', { name: 'Get your team started' })).to.exist;
    fireEvent.click(view.getByRole('button', { name: 'Invite people' }));
    fireEvent.click(view.getByRole('button', { name: 'Choose how members sign in' }));
    expect(view.getByRole('link', { name: 'Verify your company’s domain' }).getAttribute('href')).to.equal(
      '/manage/team/domains',
    );
    await expectNoAxeViolations(container);
    fireEvent.click(view.getByRole('button', { name: 'Hide this list' }));
    await waitFor(() => expect(calls).to.deep.equal(['invite', 'methods', 'dismissed']));
  });

  it('keeps a step that wraps on a narrow screen reading from its start', async () => {
    await signInAs('ada@acme.test');
    const { view, container } = await renderWithElement(
      <WithTextPart part="admin" waiting={null} failed={null}>
        <Checklist onInvite={() => {}} onMethods={() => {}} onDismissed={() => {}} />
      </WithTextPart>,
      { route: '/manage/team' },
    );
    (container.getRootNode() as ShadowRoot).host.setAttribute('style', 'display: block; width: 160px');
    const step = await view.findByRole('button', { name: 'Choose how members sign in' });
    const words = document.createRange();
    words.selectNodeContents(step);
    const lines = [...words.getClientRects()];
    expect(lines.length, 'it wraps').to.be.above(1);
    // Each line starts where the button does, as a link's lines do (a button centres them).
    for (const line of lines) expect(line.left).to.be.closeTo(step.getBoundingClientRect().left, 1);
  });

  it('is not shown for a team no sign-up made', async () => {
    await signInAs('ada@acme.test');
    const { view } = await renderWithElement(<TeamPage />, { route: '/manage/team' });
    await view.findByRole('region', { name: 'Team management' });
    expect(view.queryByRole('region', { name: 'Get your team started' })).to.equal(null);
  });
});
