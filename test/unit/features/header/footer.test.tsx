import { expect } from 'chai';
import { BRANDS, type BrandId } from '../../../../src/brands';
import { Footer } from '../../../../src/features/header/footer';
import type { Language } from '../../../../src/contract/languages';
import { renderWithElement } from '../../render';

async function renderFooter(language: Language, brand: BrandId = 'intoware') {
  const { view } = await renderWithElement(<Footer />, { language, brand });
  return { view, footer: view.getByRole('contentinfo') };
}

/** The copyright line is one translated sentence with the provider's link inside it (`<Trans>`). */
describe('the footer', () => {
  const year = new Date().getFullYear();

  it('is one sentence with the provider link in its place, the link named by the provider', async () => {
    const { view, footer } = await renderFooter('en');
    const link = view.getByRole('link', { name: 'Intoware' });
    expect(link.getAttribute('href')).to.equal(BRANDS.intoware.footer.url);
    expect(link.getAttribute('target')).to.equal('_blank');
    expect(link.getAttribute('rel')).to.equal('noopener noreferrer');
    expect(footer.textContent).to.equal(`© ${year} Intoware. All rights reserved.`);
  });

  it('follows each language’s word order, and never formats the year as a number', async () => {
    const { view, footer } = await renderFooter('de', 'onsight');
    expect(view.getByRole('link', { name: BRANDS.onsight.footer.name })).to.exist;
    expect(footer.textContent).to.equal(`© ${year} ${BRANDS.onsight.footer.name}. Alle Rechte vorbehalten.`);
    const japanese = await renderFooter('ja');
    expect(japanese.footer.textContent).to.equal(`© ${year} Intoware 無断複写・転載を禁じます。`);
  });
});
