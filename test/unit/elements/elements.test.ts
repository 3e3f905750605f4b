import { expect } from 'chai';
import { waitFor, within } from '@testing-library/dom';
import { mount, rendered } from '../support';
import '../../../src/index';
import { sharedSheet } from '../../../src/styles/sheet';
import { emit } from '../../../src/ui/events';
import { define, elementClass } from '../../../src/elements/define';
import { createElement, lazy, type ComponentType } from 'react';
import { preferencesStore } from '../../../src/state/preferences';

const TAGS = ['acct-portal', 'acct-header', 'acct-login', 'acct-manage', 'acct-token'] as const;

describe('elements', () => {
  const page = location.href;
  afterEach(() => {
    document.body.replaceChildren();
    // <acct-portal> routes through the History API: put the test page's address back.
    history.replaceState(null, '', page);
  });

  it('defines all five elements', () => {
    for (const tag of TAGS) expect(customElements.get(tag), tag).to.be.a('function');
  });

  for (const tag of TAGS) {
    it(`<${tag}> renders its frame in an open shadow root with the shared stylesheet`, async () => {
      const element = mount(`<${tag}></${tag}>`);
      const root = await rendered(element);
      expect(root.mode).to.equal('open');
      expect(root.adoptedStyleSheets).to.deep.equal([sharedSheet()]);
      expect(root.querySelectorAll('style')).to.have.length(0);
      expect(document.querySelectorAll('style')).to.have.length(0);
      expect(root.querySelector('[part="root"]')?.getAttribute('data-brand')).to.equal('intoware');
      expect(root.querySelector('[part="root"]')?.getAttribute('lang')).to.equal('en');
    });
  }

  it('shares one stylesheet object between elements', async () => {
    const a = mount('<acct-login></acct-login>');
    const b = mount('<acct-header></acct-header>');
    await rendered(a);
    await rendered(b);
    expect(a.shadowRoot!.adoptedStyleSheets[0]).to.equal(b.shadowRoot!.adoptedStyleSheets[0]);
  });

  it('follows the brand and lang attributes, a later change of them and their removal', async () => {
    const element = mount('<acct-login brand="onsight" lang="fr"></acct-login>');
    const root = await rendered(element);
    const themed = root.querySelector('[part="root"]')!;
    expect(themed.getAttribute('data-brand')).to.equal('onsight');
    expect(themed.getAttribute('lang')).to.equal('fr');
    const view = within(root as unknown as HTMLElement);
    expect(await view.findByRole('heading', { name: 'Connectez-vous à votre équipe' })).to.exist;
    element.setAttribute('lang', 'ja');
    element.setAttribute('brand', 'schenck');
    await waitFor(() => expect(themed.getAttribute('lang')).to.equal('ja'));
    expect(themed.getAttribute('data-brand')).to.equal('schenck');
    expect(await view.findByRole('heading', { name: 'チームにサインイン' })).to.exist;
    // Removed, both go back to their defaults (r2wc alone keeps the last value of a removed attribute).
    element.removeAttribute('lang');
    element.removeAttribute('brand');
    await waitFor(() => expect(themed.getAttribute('lang')).to.equal('en'));
    expect(themed.getAttribute('data-brand')).to.equal('intoware');
    expect(await view.findByRole('heading', { name: 'Sign in to your team' })).to.exist;
  });

  it('tells its host of a navigation only when the place changes, not when the language or brand does', async () => {
    const element = mount('<acct-portal></acct-portal>');
    const heard: string[] = [];
    element.addEventListener('acct-navigate', (event) =>
      heard.push((event as CustomEvent<{ path: string }>).detail.path),
    );
    const root = (await rendered(element)).querySelector('[part="root"]')!;
    // Where it starts, and where that sends a visitor who is not signed in.
    await waitFor(() => expect(heard.at(-1)).to.match(/^\/login/));
    const places = [...heard];
    element.setAttribute('lang', 'fr');
    element.setAttribute('brand', 'onsight');
    await waitFor(() => expect(root.getAttribute('lang')).to.equal('fr'));
    expect(root.getAttribute('data-brand')).to.equal('onsight');
    // Time for a render the change would have caused.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).to.deep.equal(places);
  });

  it("shows the loading frame (brand and a loading status) while the screen's lazy chunk loads", async () => {
    let arrive!: (screen: { default: ComponentType }) => void;
    const chunk = new Promise<{ default: ComponentType }>((resolve) => (arrive = resolve));
    define('test-lazy-screen', elementClass(lazy(() => chunk)));
    const root = await rendered(mount('<test-lazy-screen brand="onsight"></test-lazy-screen>'));
    const view = within(root as unknown as HTMLElement);
    expect(view.getByRole('status').textContent).to.contain('Loading');
    // The frame shows the brand's wordmark image, named with the brand's name.
    const card = root.querySelector<HTMLElement>('.frame [part="card"]')!;
    expect(within(card).getByRole('img', { name: 'Onsight' })).to.exist;
    arrive({ default: () => createElement('h1', null, 'The screen') });
    expect(await view.findByRole('heading', { name: 'The screen' })).to.exist;
    expect(view.queryByRole('status')).to.equal(null);
  });

  it('falls back to the default brand for an unknown one', async () => {
    const root = await rendered(mount('<acct-token brand="nope"></acct-token>'));
    expect(root.querySelector('[part="root"]')?.getAttribute('data-brand')).to.equal('intoware');
  });

  it('applies dark mode only for brands with a dark theme', async () => {
    preferencesStore.setState({ darkMode: true });
    try {
      const dark = await rendered(mount('<acct-header brand="intoware"></acct-header>'));
      const light = await rendered(mount('<acct-header brand="schenck"></acct-header>'));
      expect(dark.querySelector('[part="root"]')?.getAttribute('data-theme')).to.equal('dark');
      expect(light.querySelector('[part="root"]')?.getAttribute('data-theme')).to.equal('light');
    } finally {
      preferencesStore.setState({ darkMode: false });
    }
  });

  it('lets host pages override colours through --acct-color-* custom properties', async () => {
    const element = mount('<acct-login style="--acct-color-primary: rgb(1, 2, 3)"></acct-login>');
    const root = await rendered(element);
    const themed = root.querySelector('[part="root"]')!;
    expect(getComputedStyle(themed).getPropertyValue('--_primary').trim()).to.equal('rgb(1, 2, 3)');
  });

  it('keeps host page text styles out of the shadow tree', async () => {
    const host = mount(
      '<div style="font-family: serif; letter-spacing: 9px"><acct-login></acct-login></div>',
    );
    const root = await rendered(host.querySelector('acct-login')!);
    const themed = root.querySelector('[part="root"]')!;
    expect(getComputedStyle(themed).letterSpacing).to.equal('normal');
    expect(getComputedStyle(themed).fontFamily).to.not.equal('serif');
  });
});

describe('events', () => {
  it('emit() dispatches from the host, bubbling and composed, with a typed detail', async () => {
    const element = mount('<acct-login></acct-login>');
    await rendered(element);
    const seen: Array<{ detail: unknown; composed: boolean; bubbles: boolean }> = [];
    const listener = (event: Event) => {
      const custom = event as CustomEvent;
      seen.push({ detail: custom.detail, composed: custom.composed, bubbles: custom.bubbles });
    };
    document.addEventListener('acct-signed-in', listener);
    try {
      emit(element, 'acct-signed-in', { team: 'acme', email: 'ada@acme.test' });
    } finally {
      document.removeEventListener('acct-signed-in', listener);
    }
    expect(seen).to.deep.equal([
      { detail: { team: 'acme', email: 'ada@acme.test' }, composed: true, bubbles: true },
    ]);
  });
});

describe('boolean attributes', () => {
  /** Shows its two flags as text: the element's boolean props, as the screen receives them. */
  function Flags({ flag, twoWords }: { flag?: boolean; twoWords?: boolean }) {
    return createElement('p', null, `flag ${flag === true} two-words ${twoWords === true}`);
  }
  define('test-flags', elementClass(Flags, { flag: 'boolean', twoWords: 'boolean' }));
  type FlagsElement = HTMLElement & { flag: boolean; twoWords: boolean };

  afterEach(() => document.body.replaceChildren());

  const shown = async (element: HTMLElement) => (await rendered(element)).querySelector('p')?.textContent;

  it('are true when present, even bare, as in HTML; false when absent or "false"', async () => {
    const cases: Array<[string, string]> = [
      ['<test-flags flag two-words></test-flags>', 'flag true two-words true'],
      ['<test-flags flag="" two-words="true"></test-flags>', 'flag true two-words true'],
      ['<test-flags flag="yes"></test-flags>', 'flag true two-words false'],
      ['<test-flags flag="false" two-words="FALSE"></test-flags>', 'flag false two-words false'],
      ['<test-flags></test-flags>', 'flag false two-words false'],
    ];
    for (const [markup, expected] of cases) {
      const element = mount(markup) as FlagsElement;
      await waitFor(async () => expect(await shown(element), markup).to.equal(expected));
      expect(element.flag, markup).to.equal(expected.startsWith('flag true'));
    }
  });

  it('follow a later change of the attribute, and the property reflects to it', async () => {
    const element = mount('<test-flags></test-flags>') as FlagsElement;
    expect(await shown(element)).to.equal('flag false two-words false');
    element.setAttribute('flag', '');
    await waitFor(async () => expect(await shown(element)).to.equal('flag true two-words false'));
    element.removeAttribute('flag');
    await waitFor(async () => expect(await shown(element)).to.equal('flag false two-words false'));
    element.twoWords = true;
    expect(element.getAttribute('two-words')).to.equal('');
    await waitFor(async () => expect(await shown(element)).to.equal('flag false two-words true'));
    element.setAttribute('two-words', 'false');
    expect(element.twoWords).to.equal(false);
    element.twoWords = true;
    expect(element.getAttribute('two-words')).to.equal('');
    element.twoWords = false;
    expect(element.hasAttribute('two-words')).to.equal(false);
    await waitFor(async () => expect(await shown(element)).to.equal('flag false two-words false'));
  });

  it('<acct-login redirect> is redirect on, like redirect="true"', () => {
    for (const markup of [
      '<acct-login redirect></acct-login>',
      '<acct-login redirect="true"></acct-login>',
    ]) {
      expect((mount(markup) as HTMLElementTagNameMap['acct-login']).redirect, markup).to.equal(true);
    }
    expect((mount('<acct-login></acct-login>') as HTMLElementTagNameMap['acct-login']).redirect).to.equal(
      false,
    );
  });
});
