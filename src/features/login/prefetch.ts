import { normalizeIssuer } from '../../api/url';
import { readRuntimeSettings } from '../../state/settings';
import { loadTeam } from '../../state/teams';

/**
 * Imported by the bundle entry right after the language prefetch, before React evaluates: every
 * `<acct-login team="…">` already in the page asks for its team's public details now, so the answer
 * arrives while the rest of the bundle evaluates, and the element's first screen can be its form instead
 * of a spinner and a second round trip. The element asks `loadTeam` again with the same issuer and team
 * and gets the same request. Nothing is sent for an element without a team (team entry needs none).
 */
if (typeof document !== 'undefined') {
  const settings = readRuntimeSettings(document);
  for (const element of document.querySelectorAll('acct-login[team]')) {
    const team = element.getAttribute('team')?.trim().toLowerCase();
    const issuer = normalizeIssuer(element.getAttribute('issuer') || settings.issuer, location.origin);
    if (team) void loadTeam(issuer, team).catch(() => undefined);
  }
}
