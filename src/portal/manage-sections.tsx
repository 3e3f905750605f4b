import type { ManageSections } from '../features/manage/manage-area';
import { lazyScreen, type LazyScreen } from '../ui/lazy-screen';

/**
 * The manage area's sections owned by other features, each a lazily loaded chunk: a page that never
 * opens the developer tools or the QR code does not download them. The table itself is in the portal's
 * and the manage element's chunks, not in the entry.
 */
export const MANAGE_SECTIONS = {
  dev: lazyScreen(() => import('../features/token/token-form')),
  'dev/success': lazyScreen(() => import('../features/token/token-success')),
  qr: lazyScreen(() => import('../features/qr/qr-section')),
  team: lazyScreen(() => import('../features/team/team-page')),
  user: lazyScreen(() => import('../features/team/user-page')),
  group: lazyScreen(() => import('../features/team/group-page')),
  'team/apps': lazyScreen(() => import('../features/team/apps-page')),
  'team/domains': lazyScreen(() => import('../features/team/domains-page')),
  'team/connections': lazyScreen(() => import('../features/team/connections-page')),
  'team/directories': lazyScreen(() => import('../features/team/directories-page')),
  'team/streaming': lazyScreen(() => import('../features/team/streaming-page')),
  'team/events': lazyScreen(() => import('../features/team/events-page')),
  security: lazyScreen(() => import('../features/security/security-page')),
  sessions: lazyScreen(() => import('../features/account/sessions-page')),
  apps: lazyScreen(() => import('../features/account/apps-page')),
  activity: lazyScreen(() => import('../features/account/activity-page')),
  email: lazyScreen(() => import('../features/account/email-page')),
  leave: lazyScreen(() => import('../features/account/leave-page')),
} satisfies ManageSections & Record<string, LazyScreen<object>>;
