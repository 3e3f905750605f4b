import { useTranslation } from 'react-i18next';

const ICONS = {
  add: 'M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6z',
  settings:
    'M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7 7 0 0 0-1.7-1L15 3.3h-4l-.4 2.6a7 7 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7 7 0 0 0 1.7 1l.4 2.6h4l.4-2.6a7 7 0 0 0 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z',
  delete: 'M6 19a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2V7H6zM19 4h-3.5l-1-1h-5l-1 1H5v2h14z',
  group:
    'M16 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm-8 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm0 2c-2.3 0-7 1.2-7 3.5V19h14v-2.5C15 14.2 10.3 13 8 13zm8 0h-1a4.2 4.2 0 0 1 2 3.5V19h6v-2.5c0-2.3-4.7-3.5-7-3.5z',
} as const;

/** Manage user (spec §2): a placeholder — panels 'Something Else' and 'Users', filler text, icon buttons. */
export default function UserPage() {
  const { t } = useTranslation();
  return (
    <>
      <section className="panel" part="card" aria-labelledby="something-title">
        <h2 className="panel-title" id="something-title">
          {t('user.somethingElse')}
        </h2>
        <p>{t('user.filler')}</p>
      </section>
      <section className="panel" part="card" aria-labelledby="users-title">
        <h2 className="panel-title" id="users-title">
          {t('user.users')}
        </h2>
        <p>{t('user.filler')}</p>
        <div className="icon-row">
          {(Object.keys(ICONS) as Array<keyof typeof ICONS>).map((name) => (
            <button
              key={name}
              type="button"
              className="icon-button subtle"
              aria-label={t(`user.actions.${name}`)}
            >
              <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
                <path fill="currentColor" d={ICONS[name]} />
              </svg>
            </button>
          ))}
        </div>
      </section>
    </>
  );
}
