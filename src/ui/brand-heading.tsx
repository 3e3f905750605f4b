import { useElement } from './element-context';

/** The brand's mark and name at the top of a card. */
export function BrandHeading() {
  const { brand } = useElement();
  const Icon = brand.Icon;
  return (
    <div className="brand">
      <Icon />
      <span>{brand.name}</span>
    </div>
  );
}
