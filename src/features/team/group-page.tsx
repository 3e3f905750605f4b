import { useElement } from '../../ui/element-context';

/** Manage group (spec §2): one placeholder line. */
export default function GroupPage() {
  const { t } = useElement();
  return (
    <section className="panel" part="card">
      <p>{t('group.placeholder')}</p>
    </section>
  );
}
