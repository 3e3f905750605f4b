import { expect } from 'chai';
import { fireEvent, waitFor } from '@testing-library/react';
import { loadLanguage } from '../../../src/i18n/instance';
import type { Language } from '../../../src/contract/languages';
import { addTextPart } from '../../../src/i18n/parts';
import { RecoveryCodes } from '../../../src/ui/recovery-codes';
import { TotpKey, groupedKey } from '../../../src/ui/totp-key';
import { expectNoAxeViolations, renderWithElement } from '../render';

const URI = 'otpauth://totp/Acme:ada%40acme.test?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=Acme';
const CODES = Array.from({ length: 10 }, (_, i) => `AAAA-BBBB-CCCC-DD${String(i).padStart(2, '0')}`);

/** The element's texts with the 'security' part, which these views' screens load before them. */
async function withTexts(language: Language = 'en') {
  await addTextPart(await loadLanguage(language), 'security');
}

describe('ui/totp-key: a new authenticator-app key', () => {
  it('groups the key in fours, as the apps show it', () => {
    expect(groupedKey('JBSWY3DPEHPK3PXP')).to.equal('JBSW Y3DP EHPK 3PXP');
    expect(groupedKey('ABCDEFGHIJ')).to.equal('ABCD EFGH IJ');
  });

  it('shows a named QR code of the address and the key as text; axe-clean in light and dark', async () => {
    await withTexts();
    for (const theme of ['light', 'dark'] as const) {
      const { view, container, unmount } = await renderWithElement(
        <TotpKey uri={URI} secret="JBSWY3DPEHPK3PXPJBSWY3DP" />,
        { theme },
      );
      expect(container.querySelector('svg title')?.textContent).to.equal(
        'QR code of the key for your authenticator app',
      );
      expect(view.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP').tagName).to.equal('CODE');
      await expectNoAxeViolations(container);
      unmount();
    }
  });

  it('speaks the element’s language', async () => {
    await withTexts('de');
    const { view } = await renderWithElement(<TotpKey uri={URI} secret="JBSWY3DP" />, { language: 'de' });
    expect(view.getByText(/Scannen Sie diesen QR-Code/)).to.exist;
  });
});

describe('ui/recovery-codes: the codes, shown once', () => {
  it('lists every code, takes focus to its heading, and offers copy and download; axe-clean', async () => {
    await withTexts();
    const { view, container } = await renderWithElement(
      <RecoveryCodes codes={CODES} account="ada@acme.test" team="Acme" />,
    );
    const heading = view.getByRole('heading', { name: 'Your recovery codes' });
    await waitFor(() => expect(container.getRootNode()).to.have.property('activeElement', heading));
    const list = view.getByRole('list', { name: 'Your recovery codes' });
    expect([...list.querySelectorAll('li')].map((item) => item.textContent)).to.deep.equal(CODES);
    expect(view.getByText(/they are not shown again/)).to.exist;
    await expectNoAxeViolations(container);

    // Copying says whether it worked: the clipboard may be refused to a page without focus or permission.
    fireEvent.click(view.getByRole('button', { name: 'Copy codes' }));
    await view.findByText(/^The codes (are copied|could not be copied)/);
  });

  it('downloads the codes as a text file named in the element’s language', async () => {
    await withTexts('fr');
    const { view } = await renderWithElement(
      <RecoveryCodes codes={CODES} account="ada@acme.test" team="Acme" />,
      {
        language: 'fr',
      },
    );
    const clicked: HTMLAnchorElement[] = [];
    const click = HTMLAnchorElement.prototype.click;
    // The download itself is the browser's: the link it is given is what this checks.
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this);
    };
    try {
      fireEvent.click(view.getByRole('button', { name: 'Télécharger en texte' }));
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    expect(clicked).to.have.length(1);
    expect(clicked[0]!.download).to.equal('codes-de-recuperation.txt');
    const text = await (await fetch(clicked[0]!.href)).text();
    // Whose codes, for which team and site, and from when: a file found later says what it opens.
    const today = new Intl.DateTimeFormat('fr', { dateStyle: 'long' }).format(new Date());
    expect(text).to.equal(
      `Codes de récupération pour ada@acme.test\nÉquipe : Acme\nSite : ${location.host}\nCréés le ${today}\n\n` +
        `${CODES.join('\n')}\n`,
    );
  });
});
