import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { getSwitcher } from '../../api/endpoints';
import { sessionStore } from '../../state/session';

/** The dashboard address from the switcher call (spec §2), once signed in; null while unknown. */
export function useDashboard(language: string): string | null {
  const loggedIn = useStore(sessionStore, (state) => state.loggedIn);
  const [dashboard, setDashboard] = useState<string | null>(null);
  useEffect(() => {
    if (!loggedIn) return;
    let live = true;
    sessionStore
      .getState()
      .authorized((ctx) => getSwitcher(ctx), language)
      .then(
        (answer) =>
          live &&
          setDashboard(answer.dashboard && /^https?:\/\//.test(answer.dashboard) ? answer.dashboard : null),
        () => live && setDashboard(null),
      );
    return () => {
      live = false;
    };
  }, [loggedIn, language]);
  return loggedIn ? dashboard : null;
}
