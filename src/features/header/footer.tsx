import { useElement } from '../../ui/element-context';

/** The footer (spec §1): the copyright line with the brand's provider link. */
export function Footer() {
  const { t, brand } = useElement();
  return (
    <footer className="footer" part="footer">
      <p>
        © {new Date().getFullYear()}{' '}
        <a href={brand.footer.url} target="_blank" rel="noopener noreferrer">
          {brand.footer.name}
        </a>
        . {t('footer.rights')}
      </p>
    </footer>
  );
}
