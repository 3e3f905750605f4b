import { useTranslation } from 'react-i18next';

/** A decorative spinner; the surrounding status text carries the meaning for screen readers. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}

function Loading({ className }: { className: string }) {
  const { t } = useTranslation();
  return (
    <div className={className} role="status">
      <Spinner />
      <span>{t('common.loading')}</span>
    </div>
  );
}

/** A screen that cannot show yet (the session check, a lazily loaded screen): the spinner and 'Loading…'. */
export function ScreenLoading() {
  return <Loading className="loading manage-waiting" />;
}

/** A panel's content still loading (a list, its options): the spinner and 'Loading…'. */
export function PanelLoading() {
  return <Loading className="loading" />;
}
