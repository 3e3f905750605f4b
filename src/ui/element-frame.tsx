import { useElement } from './element-context';
import { Spinner } from './spinner';

/**
 * The frame an element shows while its screen loads: the brand's mark and name, and a loading status
 * announced to screen readers.
 */
export function ElementFrame() {
  const { brand, t } = useElement();
  const Icon = brand.Icon;
  return (
    <div className="frame">
      <div className="card" part="card">
        <div className="brand">
          <Icon />
          <span>{brand.name}</span>
        </div>
        <div className="loading" role="status">
          <Spinner />
          <span>{t('common.loading')}</span>
        </div>
      </div>
    </div>
  );
}
