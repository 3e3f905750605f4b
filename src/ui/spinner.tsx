import { useTranslation } from 'react-i18next';

/** A decorative spinner; the surrounding status text carries the meaning for screen readers. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}

/** A screen that cannot show yet (the session check, a lazily loaded screen): the spinner and 'Loading…'. */
export function ScreenLoading() {
  const { t } = useTranslation();
  return (
    <div className="loading manage-waiting" role="status">
      <Spinner />
      <span>{t('common.loading')}</span>
    </div>
  );
}
