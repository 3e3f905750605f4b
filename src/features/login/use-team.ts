import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import type { TeamPublic } from '../../api/endpoints';
import { loadedTeam, loadTeam } from '../../state/teams';

export type TeamState =
  | { status: 'loading' }
  | { status: 'ready'; details: TeamPublic }
  | { status: 'missing' }
  | { status: 'failed' };

/**
 * Whether a failed lookup means there is no such team: 404, and a name the server cannot even take (400,
 * or 414 from a server whose address limit is shorter than the name) — spec §5's "cannot find team",
 * never a generic failure.
 */
export function teamNotFound(error: unknown): boolean {
  return error instanceof ApiError && [400, 404, 414].includes(error.status);
}

/** What is known without waiting: the details if a lookup has already answered, else loading. */
function cachedState(issuer: string, team: string): TeamState {
  const ready = loadedTeam(issuer, team);
  return ready ? { status: 'ready', details: ready } : { status: 'loading' };
}

/** A team's public details (spec §3), loaded (or found already loading) when the team changes. */
export function useTeam(issuer: string, team: string): TeamState {
  const key = `${issuer}|${team}`;
  const [state, setState] = useState<{ key: string; value: TeamState }>(() => {
    const value = cachedState(issuer, team);
    // Only an answer is kept under the key; while loading, each render looks at the cache again.
    return { key: value.status === 'ready' ? key : '', value };
  });
  useEffect(() => {
    let live = true;
    loadTeam(issuer, team).then(
      (details) =>
        live &&
        // Already showing these details (they were in at the first render): no second render.
        setState((current) =>
          current.key === key && current.value.status === 'ready' && current.value.details === details
            ? current
            : { key, value: { status: 'ready', details } },
        ),
      (error: unknown) =>
        live &&
        setState({
          key,
          value: { status: teamNotFound(error) ? 'missing' : 'failed' },
        }),
    );
    return () => {
      live = false;
    };
  }, [issuer, team, key]);
  return state.key === key ? state.value : cachedState(issuer, team);
}
