/** The manage area's sections under `/manage/` (spec §2 route table, /manage children). */
export const MANAGE_PATHS = [
  'security',
  'sessions',
  'activity',
  'email',
  'leave',
  'user',
  'team',
  'group',
  'dev',
  'dev/success',
  'qr',
] as const;

/** A section of the manage area: `info` is `/manage` itself. */
export type ManageSection = 'info' | (typeof MANAGE_PATHS)[number];

/** The sections only team admins (OWNER or ADMIN) open; the manage area shows others why not. */
export const ADMIN_SECTIONS: readonly ManageSection[] = ['team', 'user', 'group'];

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
