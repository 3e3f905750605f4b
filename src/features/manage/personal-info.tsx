import { useState } from 'react';
import { useStore } from 'zustand';
import { useTranslation } from 'react-i18next';
import { sessionStore } from '../../state/session';
import { useElement } from '../../ui/element-context';
import { useScreenTitle } from '../../ui/screen-title';
import { Spinner } from '../../ui/spinner';
import { NameDialog } from './name-dialog';
import { permissionText } from './permissions';
import { usePermissions } from './use-permissions';

/** Personal info (spec §2): username, team, name with an edit button, creation date, permissions. */
export function PersonalInfo() {
  const { t } = useTranslation();
  const { language } = useElement();
  const user = useStore(sessionStore, (state) => state.user);
  const team = useStore(sessionStore, (state) => state.team);
  const permissions = usePermissions();
  const [editing, setEditing] = useState(false);
  const screenTitle = useScreenTitle();

  if (!user) return null;
  const created = new Date(user.created_at);
  return (
    // The screen's heading ('Personal info') names this panel: a title of its own would repeat it.
    <section className="panel" part="card" aria-labelledby={screenTitle ?? undefined}>
      <dl className="facts">
        <div>
          <dt>{t('manage.info.username')}</dt>
          <dd>{user.email}</dd>
        </div>
        <div>
          <dt>{t('manage.info.team')}</dt>
          <dd>{team?.displayName ?? user.team}</dd>
        </div>
        <div>
          <dt>{t('manage.info.name')}</dt>
          <dd className="with-action">
            <span className="user-name">{user.name}</span>
            <button
              type="button"
              className="button secondary small"
              part="button"
              aria-label={t('manage.info.editName')}
              onClick={() => setEditing(true)}
            >
              {t('manage.info.edit')}
            </button>
          </dd>
        </div>
        <div>
          <dt>{t('manage.info.created')}</dt>
          <dd>
            {Number.isNaN(created.getTime()) ? (
              '—'
            ) : (
              <time dateTime={user.created_at}>
                {new Intl.DateTimeFormat(language, { dateStyle: 'full' }).format(created)}
              </time>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('manage.info.permissions')}</dt>
          <dd>
            {permissions === null ? (
              <Spinner />
            ) : permissions === 'failed' ? (
              t('common.failed')
            ) : (
              permissionText(permissions, t, language)
            )}
          </dd>
        </div>
      </dl>
      <NameDialog open={editing} onClose={() => setEditing(false)} />
    </section>
  );
}
