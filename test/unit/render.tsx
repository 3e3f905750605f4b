import { expect } from 'chai';
import axe from 'axe-core';
import { render, within, type RenderOptions, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { BRANDS, themeOf, type BrandId } from '../../src/brands';
import { loadLanguage } from '../../src/i18n/instance';
import { addTextPart } from '../../src/i18n/parts';
import type { Language } from '../../src/contract/languages';
import type { RuntimeSettings } from '../../src/state/settings';
import { sharedSheet } from '../../src/styles/sheet';
import type { ThemeName } from '../../src/contract/tokens';
import type { ElementContextValue } from '../../src/ui/element-context';
import { ElementShell } from '../../src/ui/element-root';
import { emit } from '../../src/ui/events';
import { MemoryRouter } from '../../src/ui/router';
import { AXE_TAGS } from '../support/wcag';
// testing-library's settings for these tests (its wait, its error messages).
import './support';

/**
 * A language's i18next instance with the manage area's texts in: its panels and the team screens
 * render inside the area, which waits for them.
 */
export async function withManageTexts(language: Language) {
  const i18n = await loadLanguage(language);
  await addTextPart(i18n, 'manage');
  return i18n;
}

export interface ElementOptions {
  language?: Language;
  brand?: BrandId;
  /** Dark falls back to light for a brand without a dark theme, as in the element. */
  theme?: ThemeName;
  basePath?: string;
  settings?: RuntimeSettings;
  /** Render inside a memory router at this portal address (`/login/acme?ReturnUrl=…`). */
  route?: string;
}

export interface ElementRender extends RenderResult {
  /** The stand-in for the custom element: `acct-*` events are dispatched from it. */
  host: HTMLElement;
  /** testing-library queries inside the element's shadow root. */
  view: ReturnType<typeof within>;
}

const hosts = new Set<HTMLElement>();

// testing-library unmounts what it rendered after each test; the hosts it does not know of go too.
afterEach(() => {
  for (const host of hosts) host.remove();
  hosts.clear();
});

/**
 * Render a component as an element shows it: in an open shadow root with the element's stylesheet
 * adopted, inside the element's themed root (`ElementShell`, the element's own) with the element
 * context and the language's i18next instance — and in a memory router when `route` is given. So the
 * styles, the theme's colours and the texts are the real ones, and an axe check means what it says.
 */
export async function renderWithElement(
  ui: ReactElement,
  {
    language = 'en',
    brand = 'intoware',
    theme = 'light',
    basePath = '',
    settings = {},
    route,
  }: ElementOptions = {},
  options: Omit<RenderOptions, 'container' | 'baseElement' | 'wrapper'> = {},
): Promise<ElementRender> {
  const i18n = await withManageTexts(language);
  const host = document.createElement('div');
  document.body.append(host);
  hosts.add(host);
  const shadow = host.attachShadow({ mode: 'open' });
  shadow.adoptedStyleSheets = [sharedSheet()];
  const container = shadow.appendChild(document.createElement('div'));
  const resolved = BRANDS[brand];
  const context: ElementContextValue = {
    host,
    issuer: location.origin,
    brand: resolved,
    theme: themeOf(resolved, theme === 'dark'),
    basePath,
    language,
    settings,
    emit: (type, detail) => emit(host, type, detail),
  };
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <ElementShell context={context} i18n={i18n}>
        {route ? <MemoryRouter initial={route}>{children}</MemoryRouter> : children}
      </ElementShell>
    );
  }
  const result = render(ui, { ...options, container, baseElement: container, wrapper: Wrapper });
  return { ...result, host, view: within(container) };
}

/**
 * One axe-core run (WCAG 2.2 A and AA, as the screens sweep) over what a test rendered; fails with each
 * violation's rule and the elements it found.
 */
export async function expectNoAxeViolations(context: Element): Promise<void> {
  const { violations } = await axe.run(context, {
    runOnly: { type: 'tag', values: AXE_TAGS },
    resultTypes: ['violations'],
  });
  const found = violations.map(
    (v) => `${v.id} (${v.help}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
  );
  expect(found.length, `axe violations:\n${found.join('\n')}`).to.equal(0);
}
