import type { Interaction } from 'oidc-provider';
import { LIMITS } from '../../../src/contract/limits';
import { OIDC_PREFIX } from './openid-provider';

/** What the interaction route reads of the provider's interaction (`provider.interactionDetails`). */
type Details = Pick<Interaction, 'uid' | 'iat' | 'params' | 'prompt'>;

/**
 * When the portal session that finishes the provider's login must have begun (seconds since the epoch),
 * or null when any live session will do. The provider asks for a fresh login with `prompt=login` (the
 * prompt's reason `login_prompt`) or `max_age` (reason `max_age`): an older portal session would give
 * the app an old `auth_time` — and with `max_age` the provider would ask again, a loop. `prompt=login`
 * wants a sign-in made since the request began (the interaction's `iat`); `max_age` one at most that
 * many seconds old (or since the request began, whichever is earlier: a sign-in made for this very
 * request always does). A sign-in made for the interaction is thus always fresh enough: no loop.
 */
export function freshLoginSince(details: Details, nowSeconds: number): number | null {
  if (details.prompt.name !== 'login') return null;
  const { reasons } = details.prompt;
  if (reasons.includes('login_prompt')) return details.iat;
  if (!reasons.includes('max_age')) return null;
  const maxAge = Number(details.params.max_age);
  return Number.isFinite(maxAge) ? Math.min(details.iat, Math.floor(nowSeconds) - maxAge) : details.iat;
}

/** The portal user asked to sign in again: their team's screen, their e-mail pre-filled. */
export interface Reauthentication {
  team: string;
  email: string;
}

/**
 * The portal's sign-in screen for an interaction, coming back to it once signed in: the team's own
 * screen when the app is a team's or the request names a team (or the user signs in again), else the
 * team step. The request's
 * `login_hint` (else the signed-in user's e-mail) only pre-fills the e-mail field. A re-authentication
 * passes `max_age` (0 for `prompt=login`): the screen then takes a signed-in user, and a provider
 * sign-in asks the external provider for a fresh login too.
 */
export function signInScreenAddress(
  details: Details,
  reauthentication?: Reauthentication,
  /** The app's own team (a team's app), which wins over the request's `team`. */
  appTeam?: string | null,
): string {
  const named = typeof details.params.team === 'string' ? details.params.team : '';
  const team = reauthentication?.team ?? appTeam ?? (/^[a-z0-9-]{1,63}$/.test(named) ? named : null);
  const query = new URLSearchParams({ ReturnUrl: `${OIDC_PREFIX}/interaction/${details.uid}` });
  const hint = details.params.login_hint;
  const email = typeof hint === 'string' && hint.length <= LIMITS.email ? hint : reauthentication?.email;
  if (email) query.set('login_hint', email);
  if (reauthentication) {
    const maxAge = details.prompt.reasons.includes('login_prompt') ? 0 : Number(details.params.max_age);
    query.set('max_age', String(Number.isInteger(maxAge) && maxAge >= 0 ? maxAge : 0));
  }
  return `${team ? `/login/${team}` : '/login/team'}?${query}`;
}
