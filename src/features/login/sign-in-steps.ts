import type { RefObject } from 'react';
import { sessionStore } from '../../state/session';

/**
 * The server has begun a session (signing in, or joining by invitation): the screen stays busy and
 * marks the sign-in as its own (`completing`, so its "someone is signed in" handling does not take it
 * for another's) while the session store forgets whoever it knew and learns who is signed in now.
 */
export async function beginSession(completing: RefObject<boolean>, setBusy: (busy: boolean) => void) {
  completing.current = true;
  setBusy(true);
  const session = sessionStore.getState();
  session.reset();
  await session.check();
}
