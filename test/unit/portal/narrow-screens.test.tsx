import { expect } from 'chai';
import { fireEvent, waitFor } from '@testing-library/react';
import { setViewport } from '@web/test-runner-commands';
import ManageArea from '../../../src/features/manage/manage-area';
import { MANAGE_SECTIONS } from '../../../src/portal/manage-sections';
import type { Language } from '../../../src/contract/languages';
import { renderWithElement } from '../render';
import { logoutEverywhere, serverReady, signInAs } from '../support';

before(serverReady);
afterEach(logoutEverywhere);

const LANGUAGES = ['de', 'fi', 'nl', 'pl'] as const;

/** What runs past its own box's edge: a word wider than its line, a column wider than its grid. */
function overflowing(root: Element): string[] {
  return [root, ...root.querySelectorAll('*')]
    .filter(
      (el) =>
        !(el instanceof HTMLInputElement) &&
        getComputedStyle(el).overflowX === 'visible' &&
        el.scrollWidth > el.clientWidth + 1 &&
        el.clientWidth > 0,
    )
    .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${el.scrollWidth} > ${el.clientWidth}`);
}

async function manage(route: string, language: Language, ready: string) {
  const view = await renderWithElement(<ManageArea standalone sections={MANAGE_SECTIONS} />, {
    route,
    language,
  });
  await waitFor(() => expect(view.container.querySelector(ready)).to.exist, { timeout: 15_000 });
  return view;
}

/**
 * WCAG 1.4.10 reflow in the languages whose words are longest: the screens sweep checks a 320 px screen
 * in English only, and German, Finnish, Dutch and Polish titles, buttons and field names are what did not
 * fit.
 */
describe('the team screens on a 320 px screen', () => {
  before(() => setViewport({ width: 320, height: 640 }));
  after(() => setViewport({ width: 800, height: 600 }));

  it('fit it in German, Finnish, Dutch and Polish, nothing scrolled sideways', async function () {
    this.timeout(90_000);
    await signInAs('ada@acme.test');
    for (const language of LANGUAGES)
      for (const section of ['apps', 'connections', 'directories', 'domains', 'streaming']) {
        // Ready when the list has come: the action beside its title.
        const { container, unmount } = await manage(
          `/manage/team/${section}`,
          language,
          '.panel-heading .button',
        );
        expect(container.scrollWidth, `${section} in ${language}`).to.be.at.most(container.clientWidth);
        unmount();
      }
  });

  it('keep their dialogs’ titles and fields within them in those languages, Swedish and Norwegian', async function () {
    this.timeout(90_000);
    await signInAs('ada@acme.test');
    for (const language of [...LANGUAGES, 'sv', 'nb'] as const) {
      for (const section of ['apps', 'streaming']) {
        const list = await manage(`/manage/team/${section}`, language, '.panel-heading .button');
        fireEvent.click(list.container.querySelector('.panel-heading .button')!);
        const dialog = await waitFor(() => {
          const open = list.container.querySelector('dialog[open]');
          expect(open).to.exist;
          return open!;
        });
        expect(overflowing(dialog), `adding on ${section} in ${language}`).to.deep.equal([]);
        list.unmount();
      }
      const team = await manage('/manage/team?invite=1', language, 'dialog[open] .checks');
      const invite = team.container.querySelector('dialog[open]')!;
      expect(overflowing(invite), `inviting in ${language}`).to.deep.equal([]);
      team.unmount();
    }
  });
});
