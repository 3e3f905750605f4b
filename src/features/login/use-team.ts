import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import type { TeamPublic } from '../../api/endpoints';
import { loadedTeam, loadTeam } from '../../state/teams';

export type TeamState =
  | { status: 'loading' }
  | { status: 'ready'; details: TeamPublic }
  | { status: 'missing' }
  | { status: 'failed' };

/** A team's public details (spec §3), loaded (or found already loading) when the team changes. */
export function useTeam(issuer: string, team: string): TeamState {
  const key = `${issuer}|${team}`;
  const [state, setState] = useState<{ key: string; value: TeamState }>(() => {
    const ready = loadedTeam(issuer, team);
    return ready
      ? { key, value: { status: 'ready', details: ready } }
      : { key: '', value: { status: 'loading' } };
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
          value: { status: error instanceof ApiError && error.status === 404 ? 'missing' : 'failed' },
        }),
    );
    return () => {
      live = false;
    };
  }, [issuer, team, key]);
  if (state.key === key) return state.value;
  const ready = loadedTeam(issuer, team);
  return ready ? { status: 'ready', details: ready } : { status: 'loading' };
}
