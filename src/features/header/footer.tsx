import { Trans } from 'react-i18next';
import { useElement } from '../../ui/element-context';

/** The footer (spec §1): the copyright line with the brand's provider link, as one translatable sentence. */
export function Footer() {
  const { brand } = useElement();
  return (
    <footer className="footer" part="footer">
      <p>
        <Trans
          i18nKey="footer.copyright"
          // A string: a year is not a quantity, and number formatting would write 2.026 in German.
          values={{ year: String(new Date().getFullYear()), provider: brand.footer.name }}
          components={{ provider: <a href={brand.footer.url} target="_blank" rel="noopener noreferrer" /> }}
        />
      </p>
    </footer>
  );
}
