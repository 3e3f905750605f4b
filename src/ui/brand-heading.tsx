import { useElement } from './element-context';

/** The brand's mark and wordmark (icon-text image, named for screen readers) at the top of a card. */
export function BrandHeading() {
  const { brand } = useElement();
  const { Icon, Wordmark } = brand;
  return (
    <div className="brand">
      <Icon />
      <Wordmark label={brand.name} />
    </div>
  );
}
