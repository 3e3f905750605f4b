import { translateWithSlots } from '../../i18n/slots';
import { useElement } from '../../ui/element-context';

/** The footer (spec §1): the copyright line with the brand's provider link, as one translatable sentence. */
export function Footer() {
  const { t, brand } = useElement();
  const provider = (
    <a href={brand.footer.url} target="_blank" rel="noopener noreferrer">
      {brand.footer.name}
    </a>
  );
  return (
    <footer className="footer" part="footer">
      <p>
        {translateWithSlots(
          t,
          'footer.copyright',
          // A string: a year is not a quantity, and number formatting would write 2.026 in German.
          { year: String(new Date().getFullYear()) },
          { provider },
        )}
      </p>
    </footer>
  );
}
