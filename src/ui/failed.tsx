import { useTranslation } from 'react-i18next';
import { Alert } from './alert';

/** A list or screen that could not load: says so, with a way to try again when there is one. */
export function Failed({ retry }: { retry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert tone="error">
      <p>{t('common.failed')}</p>
      {retry ? (
        <button type="button" className="button secondary small" part="button" onClick={retry}>
          {t('common.retry')}
        </button>
      ) : null}
    </Alert>
  );
}
