import { listText } from '../../i18n/list';
import type { Permissions } from '../../api/endpoints';
import type { TFunction } from 'i18next';

const KNOWN = ['OWNER', 'ADMIN', 'EDITOR', 'APPROVER', 'SPOKE'];

/**
 * The granted permissions as translated labels joined the way the language joins a list (spec §2:
 * "comma-joined"), or the "No Permissions Defined" text. Unknown permission names show as they are.
 */
export function permissionText(permissions: Permissions, t: TFunction, language: string): string {
  const labels = Object.entries(permissions)
    .filter(([, granted]) => granted)
    .map(([name]) => (KNOWN.includes(name) ? t(`manage.permissions.${name}`) : name));
  if (labels.length === 0) return t('manage.info.noPermissions');
  return listText(labels, language);
}
