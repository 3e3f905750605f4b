import { expect } from 'chai';
import { fireEvent, within } from '@testing-library/react';
import { HeaderBar } from '../../../../src/features/header/header-bar';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady, signInAs } from '../../support';

before(serverReady);
afterEach(logoutEverywhere);

/** The suite header (spec §2) as a component test with one axe check, for a user of the real server. */
describe('header screen (component)', () => {
  it('signed in: the home link, the named navigation and the account menu open; axe-clean', async () => {
    await signInAs('ada@acme.test');
    const { view, container } = await renderWithElement(<HeaderBar homeHref="/" />);
    const banner = within(view.getByRole('banner'));
    expect(banner.getByRole('link', { name: 'Intoware home' }).getAttribute('href')).to.equal('/');
    const nav = within(banner.getByRole('navigation', { name: 'Apps and account' }));
    expect(nav.getByRole('button', { name: 'Language: English' })).to.exist;
    expect(nav.getByRole('button', { name: 'Apps' })).to.exist;
    const account = nav.getByRole('button', { name: 'Account menu for Ada Lovelace' });
    fireEvent.click(account);
    expect(account.getAttribute('aria-expanded')).to.equal('true');
    const menu = within(view.getByRole('menu', { name: 'Account menu for Ada Lovelace' }));
    expect(menu.getByRole('menuitem', { name: 'Manage account' })).to.exist;
    const dark = menu.getByRole('menuitemcheckbox', { name: 'Dark theme' });
    expect(dark.getAttribute('aria-checked')).to.equal('false');
    expect(menu.getByRole('menuitem', { name: 'Sign out' })).to.exist;
    await expectNoAxeViolations(container);
  });

  it('marks the current language in its menu for the eye, not only for a screen reader', async () => {
    const { view } = await renderWithElement(<HeaderBar homeHref="/" />, { language: 'de' });
    fireEvent.click(await view.findByRole('button', { name: 'Sprache: Deutsch' }));
    const menu = within(view.getByRole('menu', { name: 'Sprache: Deutsch' }));
    const mark = (name: string) =>
      getComputedStyle(menu.getByRole('menuitemradio', { name }), '::after').content;
    expect(menu.getByRole('menuitemradio', { name: 'Deutsch' }).getAttribute('aria-checked')).to.equal(
      'true',
    );
    expect(mark('Deutsch')).to.equal('"✓" / ""');
    expect(mark('English')).to.equal('none');
  });
});
