import { expect } from 'chai';
import { waitFor } from '@testing-library/react';
import { setViewport } from '@web/test-runner-commands';
import ManageArea from '../../../src/features/manage/manage-area';
import { MANAGE_SECTIONS } from '../../../src/portal/manage-sections';
import { renderWithElement } from '../render';
import { logoutEverywhere, serverReady, signInAs } from '../support';

before(serverReady);
afterEach(logoutEverywhere);

/**
 * WCAG 1.4.10 reflow in the languages whose words are longest: the screens sweep checks a 320 px screen
 * in English only, and German, Finnish, Dutch and Polish titles and buttons are what did not fit.
 */
describe('the team screens on a 320 px screen', () => {
  it('fit it in German, Finnish, Dutch and Polish, nothing scrolled sideways', async function () {
    this.timeout(90_000);
    await signInAs('ada@acme.test');
    await setViewport({ width: 320, height: 640 });
    try {
      for (const language of ['de', 'fi', 'nl', 'pl'] as const)
        for (const section of ['apps', 'connections', 'directories', 'domains', 'streaming']) {
          const { container, unmount } = await renderWithElement(
            <ManageArea standalone sections={MANAGE_SECTIONS} />,
            { route: `/manage/team/${section}`, language },
          );
          // The screen and its list have come: the action beside the list's title.
          await waitFor(() => expect(container.querySelector('.panel-heading .button')).to.exist, {
            timeout: 15_000,
          });
          expect(container.scrollWidth, `${section} in ${language}`).to.be.at.most(container.clientWidth);
          unmount();
        }
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });
});
