import { BrandHeading } from './brand-heading';
import { useElement } from './element-context';
import { Spinner } from './spinner';

/**
 * The frame an element shows while its screen loads: the brand's mark and name, and a loading status
 * announced to screen readers.
 */
export function ElementFrame() {
  const { t } = useElement();
  return (
    <div className="frame">
      <div className="card" part="card">
        <BrandHeading />
        <div className="loading" role="status">
          <Spinner />
          <span>{t('common.loading')}</span>
        </div>
      </div>
    </div>
  );
}
