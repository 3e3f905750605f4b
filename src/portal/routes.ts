/** The portal's screens (spec §2 route table). */
export type ManageSection = '' | 'user' | 'team' | 'group' | 'dev' | 'dev/success' | 'qr';

export type PortalView =
  | { kind: 'login' }
  | { kind: 'search' }
  | { kind: 'manage'; section: ManageSection }
  | { kind: 'redirect'; to: string };

const MANAGE_SECTIONS: readonly ManageSection[] = ['', 'user', 'team', 'group', 'dev', 'dev/success', 'qr'];

/**
 * The route table: `/login/...` (its children are matched by the login screens, with anything unknown
 * sent to the team screen), `/search`, `/manage/{'', user, team, group, dev, dev/success, qr}`,
 * `home/token` → `manage/dev/success` (the fragment kept), and anything else → `manage`.
 */
export function matchRoute(path: string, hash = ''): PortalView {
  const trimmed = path.replace(/\/+$/, '') || '/';
  if (trimmed === '/login' || trimmed.startsWith('/login/')) return { kind: 'login' };
  if (trimmed === '/search') return { kind: 'search' };
  if (trimmed === '/home/token') return { kind: 'redirect', to: `/manage/dev/success${hash}` };
  if (trimmed === '/manage' || trimmed.startsWith('/manage/')) {
    const section = trimmed.slice('/manage'.length).replace(/^\//, '');
    if ((MANAGE_SECTIONS as readonly string[]).includes(section))
      return { kind: 'manage', section: section as ManageSection };
  }
  return { kind: 'redirect', to: '/manage' };
}
