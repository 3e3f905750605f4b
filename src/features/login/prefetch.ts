import { issuerOf, readRuntimeSettings } from '../../state/settings';
import { loadTeam } from '../../state/teams';
import type { LoginElementProps } from './login-element';

/** Start the team lookup as soon as the element knows its issuer, before its screen renders. */
export function preloadLogin(props: LoginElementProps, issuer: string): void {
  const team = props.team?.trim().toLowerCase();
  if (team) void loadTeam(issuer, team).catch(() => undefined);
}

/**
 * Imported first by the bundle entry, before React evaluates (this module imports no component):
 * every `<acct-login team="…">` already in the page asks for its team's public details now, so the
 * answer arrives while the rest of the bundle evaluates, and the element's first screen can be its form
 * instead of a spinner and a second round trip. The element's own `preloadLogin`, with the same issuer
 * and team, gets the same request. Attributes are read as r2wc reads them: an empty one is no value.
 */
if (typeof document !== 'undefined') {
  const settings = readRuntimeSettings(document);
  for (const element of document.querySelectorAll('acct-login[team]')) {
    const issuer = issuerOf(element.getAttribute('issuer') || undefined, settings);
    preloadLogin({ team: element.getAttribute('team') ?? undefined }, issuer);
  }
}
