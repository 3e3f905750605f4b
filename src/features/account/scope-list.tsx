import { useTranslation } from 'react-i18next';
import type { AppScope } from '../../api/apps';

/** What an app may do with the user's account, one item per scope (`identity`: who they are, first). */
export function ScopeList({ scopes, identity = false }: { scopes: readonly AppScope[]; identity?: boolean }) {
  const { t } = useTranslation();
  const words: Record<AppScope, string> = {
    profile: t('apps.scope.profile'),
    email: t('apps.scope.email'),
    offline_access: t('apps.scope.offline_access'),
  };
  return (
    <ul className="scopes">
      {identity ? <li>{t('apps.scope.openid')}</li> : null}
      {scopes.map((scope) => (
        <li key={scope}>{words[scope]}</li>
      ))}
    </ul>
  );
}
