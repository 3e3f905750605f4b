import { expect } from 'chai';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { BRANDS } from '../../../../src/brands';
import { Footer } from '../../../../src/features/header/footer';
import { loadLanguage } from '../../../../src/i18n/instance';
import type { Language } from '../../../../src/i18n/languages';
import { ElementContext, type ElementContextValue } from '../../../../src/ui/element-context';

async function renderFooter(language: Language, brand = BRANDS.intoware) {
  const i18n = await loadLanguage(language);
  const element: ElementContextValue = {
    host: document.body,
    issuer: location.origin,
    brand,
    theme: 'light',
    basePath: '',
    language,
    settings: {},
    emit: () => true,
  };
  render(
    <I18nextProvider i18n={i18n}>
      <ElementContext.Provider value={element}>
        <Footer />
      </ElementContext.Provider>
    </I18nextProvider>,
  );
  return screen.getByRole('contentinfo');
}

/** The copyright line is one translated sentence with the provider's link inside it (`<Trans>`). */
describe('the footer', () => {
  afterEach(cleanup);
  const year = new Date().getFullYear();

  it('is one sentence with the provider link in its place, the link named by the provider', async () => {
    const footer = await renderFooter('en');
    const link = screen.getByRole('link', { name: 'Intoware' });
    expect(link.getAttribute('href')).to.equal(BRANDS.intoware.footer.url);
    expect(link.getAttribute('target')).to.equal('_blank');
    expect(link.getAttribute('rel')).to.equal('noopener noreferrer');
    expect(footer.textContent).to.equal(`© ${year} Intoware. All rights reserved.`);
  });

  it('follows each language’s word order, and never formats the year as a number', async () => {
    const footer = await renderFooter('de', BRANDS.onsight);
    expect(screen.getByRole('link', { name: BRANDS.onsight.footer.name })).to.exist;
    expect(footer.textContent).to.equal(`© ${year} ${BRANDS.onsight.footer.name}. Alle Rechte vorbehalten.`);
    cleanup();
    const japanese = await renderFooter('ja');
    expect(japanese.textContent).to.equal(`© ${year} Intoware 無断複写・転載を禁じます。`);
  });
});
