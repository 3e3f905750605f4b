import { useTranslation } from 'react-i18next';

/** Manage group (spec §2): one placeholder line. */
export default function GroupPage() {
  const { t } = useTranslation();
  return (
    <section className="panel" part="card">
      <p>{t('group.placeholder')}</p>
    </section>
  );
}
