/** The manage area's sections under `/manage/` (spec §2 route table, /manage children). */
export const MANAGE_PATHS = [
  'security',
  'sessions',
  'apps',
  'activity',
  'email',
  'leave',
  'user',
  'team',
  'group',
  'team/apps',
  'team/domains',
  'team/connections',
  'team/directories',
  'team/events',
  'team/streaming',
  'dev',
  'dev/success',
  'qr',
] as const;

/** A section of the manage area: `info` is `/manage` itself. */
export type ManageSection = 'info' | (typeof MANAGE_PATHS)[number];

/** The sections only team admins (OWNER or ADMIN) open; the manage area shows others why not. */
export const ADMIN_SECTIONS: readonly ManageSection[] = [
  'team',
  'user',
  'group',
  'team/apps',
  'team/domains',
  'team/connections',
  'team/directories',
  'team/events',
  'team/streaming',
];

/** The headings of the manage area's navigation, in order. */
export const MANAGE_GROUPS = ['account', 'team', 'developer'] as const;
export type ManageGroup = (typeof MANAGE_GROUPS)[number];

/** A screen of the manage area as its navigation and the search page know it. */
export interface ManageScreen {
  section: ManageSection;
  /** Its portal address. */
  path: string;
  /** Its navigation label's text key; the heading's (`manage.heading.*`) where it differs. */
  nav: string;
  heading: string;
  /** Other words it is found by (comma-separated in each language): what it holds, what people call it. */
  words: string;
  group: ManageGroup;
  /** Only team admins (OWNER or ADMIN) see it listed. */
  admin: boolean;
}

/**
 * Every screen of the manage area, in navigation order: the sidebar and the search page's index are both
 * made from it, so a screen added here is listed and found. `dev/success` is a result, not a screen.
 * (The keys are written out whole so the static test of unused texts sees them.)
 */
export const MANAGE_SCREENS: readonly ManageScreen[] = [
  {
    section: 'info',
    path: '/manage',
    nav: 'manage.nav.info',
    heading: 'manage.heading.info',
    words: 'manage.words.info',
    group: 'account',
    admin: false,
  },
  {
    section: 'security',
    path: '/manage/security',
    nav: 'manage.nav.security',
    heading: 'manage.nav.security',
    words: 'manage.words.security',
    group: 'account',
    admin: false,
  },
  {
    section: 'sessions',
    path: '/manage/sessions',
    nav: 'manage.nav.sessions',
    heading: 'manage.nav.sessions',
    words: 'manage.words.sessions',
    group: 'account',
    admin: false,
  },
  {
    section: 'apps',
    path: '/manage/apps',
    nav: 'manage.nav.apps',
    heading: 'manage.nav.apps',
    words: 'manage.words.apps',
    group: 'account',
    admin: false,
  },
  {
    section: 'activity',
    path: '/manage/activity',
    nav: 'manage.nav.activity',
    heading: 'manage.nav.activity',
    words: 'manage.words.activity',
    group: 'account',
    admin: false,
  },
  {
    section: 'email',
    path: '/manage/email',
    nav: 'manage.nav.email',
    heading: 'manage.nav.email',
    words: 'manage.words.email',
    group: 'account',
    admin: false,
  },
  {
    section: 'qr',
    path: '/manage/qr',
    nav: 'manage.nav.qr',
    heading: 'manage.heading.qr',
    words: 'manage.words.qr',
    group: 'account',
    admin: false,
  },
  {
    section: 'leave',
    path: '/manage/leave',
    nav: 'manage.nav.leave',
    heading: 'manage.nav.leave',
    words: 'manage.words.leave',
    group: 'account',
    admin: false,
  },
  {
    section: 'team',
    path: '/manage/team',
    nav: 'manage.nav.team',
    heading: 'manage.heading.team',
    words: 'manage.words.team',
    group: 'team',
    admin: true,
  },
  {
    section: 'user',
    path: '/manage/user',
    nav: 'manage.nav.user',
    heading: 'manage.heading.user',
    words: 'manage.words.user',
    group: 'team',
    admin: true,
  },
  {
    section: 'group',
    path: '/manage/group',
    nav: 'manage.nav.group',
    heading: 'manage.heading.group',
    words: 'manage.words.group',
    group: 'team',
    admin: true,
  },
  {
    section: 'team/apps',
    path: '/manage/team/apps',
    nav: 'manage.nav.teamApps',
    heading: 'manage.heading.teamApps',
    words: 'manage.words.teamApps',
    group: 'team',
    admin: true,
  },
  {
    section: 'team/domains',
    path: '/manage/team/domains',
    nav: 'manage.nav.teamDomains',
    heading: 'manage.heading.teamDomains',
    words: 'manage.words.teamDomains',
    group: 'team',
    admin: true,
  },
  {
    section: 'team/connections',
    path: '/manage/team/connections',
    nav: 'manage.nav.teamConnections',
    heading: 'manage.heading.teamConnections',
    words: 'manage.words.teamConnections',
    group: 'team',
    admin: true,
  },
  {
    section: 'team/directories',
    path: '/manage/team/directories',
    nav: 'manage.nav.teamDirectories',
    heading: 'manage.heading.teamDirectories',
    words: 'manage.words.teamDirectories',
    group: 'team',
    admin: true,
  },
  {
    section: 'team/events',
    path: '/manage/team/events',
    nav: 'manage.nav.teamEvents',
    heading: 'manage.heading.teamEvents',
    words: 'manage.words.teamEvents',
    group: 'team',
    admin: true,
  },
  {
    section: 'team/streaming',
    path: '/manage/team/streaming',
    nav: 'manage.nav.teamStreaming',
    heading: 'manage.heading.teamStreaming',
    words: 'manage.words.teamStreaming',
    group: 'team',
    admin: true,
  },
  {
    section: 'dev',
    path: '/manage/dev',
    nav: 'manage.nav.dev',
    heading: 'manage.heading.dev',
    words: 'manage.words.dev',
    group: 'developer',
    admin: false,
  },
];

/** `/manage` → personal info; `/manage/{one of MANAGE_PATHS}` → that section; anything else → info. */
export function manageSection(path: string): ManageSection {
  const rest = path.replace(/\/+$/, '').replace(/^\/manage\/?/, '');
  return MANAGE_PATHS.find((s) => s === rest) ?? 'info';
}

/**
 * Developer tools are hidden on old IE-like browsers (spec §2), and only there. Decided by feature
 * detection, not by the user agent: `document.documentMode` exists only in Internet Explorer's engine
 * (and the IE mode of other browsers). Deliberately not `navigator.clipboard`: that API exists only in
 * secure contexts, so testing it would hide the tools on every plain-http host other than localhost (an
 * intranet install) in current browsers. Copying falls back to selecting the read-only text.
 */
export function developerToolsSupported(): boolean {
  return !('documentMode' in document);
}
