import { useTranslation } from 'react-i18next';
import { BrandHeading } from './brand-heading';
import { Spinner } from './spinner';

/**
 * The frame an element shows while its screen loads: the brand's mark and name, and a loading status
 * announced to screen readers.
 */
export function ElementFrame() {
  const { t } = useTranslation();
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
