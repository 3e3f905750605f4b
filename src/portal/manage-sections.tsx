import { lazy } from 'react';
import type { ManageSections } from '../features/manage/manage-area';

/**
 * The manage area's sections owned by other features, each a lazily loaded chunk: a page that never
 * opens the developer tools or the QR code does not download them.
 */
export const MANAGE_SECTIONS: ManageSections = {
  dev: lazy(() => import('../features/token/token-form')),
  'dev/success': lazy(() => import('../features/token/token-success')),
  qr: lazy(() => import('../features/qr/qr-section')),
  team: lazy(() => import('../features/team/team-page')),
  user: lazy(() => import('../features/team/user-page')),
  group: lazy(() => import('../features/team/group-page')),
};

const ManageElement = lazy(() => import('../features/manage/manage-element'));

/** `<acct-manage>`: the standalone manage area with every section. */
export function ComposedManageElement() {
  return <ManageElement sections={MANAGE_SECTIONS} />;
}
