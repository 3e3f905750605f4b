import { issuerOf, readRuntimeSettings } from '../../state/settings';
import { loadTeam } from '../../state/teams';

/**
 * The team lookup of an `<acct-login team="…">` element (undefined without a team): what its first
 * screen, the sign-in form, needs. Attributes are read as r2wc reads them: an empty one is no value.
 */
export function loginFirstData(element: Element): Promise<unknown> | undefined {
  const team = element.getAttribute('team')?.trim().toLowerCase();
  return team ? teamFirstData(element, team) : undefined;
}

/** A team's public details, looked up on the issuer an element's attributes and its page name. */
export function teamFirstData(element: Element, team: string): Promise<unknown> {
  const issuer = issuerOf(
    element.getAttribute('issuer') || undefined,
    readRuntimeSettings(element.ownerDocument),
  );
  return loadTeam(issuer, team);
}

/**
 * Imported first by the bundle entry, before React evaluates (this module imports no component):
 * every `<acct-login team="…">` already in the page asks for its team's public details now, so the
 * answer arrives while the rest of the bundle evaluates, and the element's first screen can be its form
 * instead of a spinner and a second round trip. The element gets the same request when it waits for its
 * first data before it mounts.
 */
if (typeof document !== 'undefined') {
  for (const element of document.querySelectorAll('acct-login[team]')) {
    void loginFirstData(element)?.catch(() => undefined);
  }
}
