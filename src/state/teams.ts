import { getTeamPublic, type TeamPublic } from '../api/endpoints';

/**
 * Team public details, fetched once per page and issuer: a sign-in element can start the lookup as soon
 * as it knows its team, in parallel with its language chunk, and the screen finds it ready. Failed
 * lookups are not kept, so a retry asks again.
 */
const cache = new Map<string, Promise<TeamPublic>>();
const settled = new Map<string, TeamPublic>();

const keyOf = (issuer: string, team: string) => `${issuer}\n${team}`;

export function loadTeam(issuer: string, team: string): Promise<TeamPublic> {
  const key = keyOf(issuer, team);
  let pending = cache.get(key);
  if (!pending) {
    pending = getTeamPublic({ issuer }, team);
    cache.set(key, pending);
    pending.then(
      (details) => settled.set(key, details),
      () => cache.delete(key),
    );
  }
  return pending;
}

/** The details if a lookup has already answered (lets a screen render them in its first pass). */
export function loadedTeam(issuer: string, team: string): TeamPublic | null {
  return settled.get(keyOf(issuer, team)) ?? null;
}
