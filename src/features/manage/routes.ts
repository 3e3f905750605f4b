/** The manage area's sections (spec §2 route table, /manage children). */
export type ManageSection = 'info' | 'user' | 'team' | 'group' | 'dev' | 'dev/success' | 'qr';

/** `/manage` → personal info; `/manage/{user,team,group,dev,dev/success,qr}`. */
export function manageSection(path: string): ManageSection {
  const rest = path.replace(/\/+$/, '').replace(/^\/manage\/?/, '');
  return (['user', 'team', 'group', 'dev', 'dev/success', 'qr'] as const).find((s) => s === rest) ?? 'info';
}

/**
 * Developer tools are hidden on old IE-like browsers (spec §2). Decided by feature detection, not by the
 * user agent: `document.documentMode` exists only in Internet Explorer's engine (and IE mode of other
 * browsers), and the tools copy tokens with the async Clipboard API, which such engines lack.
 */
export function developerToolsSupported(): boolean {
  return !('documentMode' in document) && typeof navigator.clipboard?.writeText === 'function';
}
