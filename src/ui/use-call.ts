import { createContext, useCallback, useContext } from 'react';
import type { ApiContext } from '../api/client';
import { sessionStore } from '../state/session';
import { useElement } from './element-context';

/** How a screen's calls are made: given the call, and the element's language, its answer. */
export type Caller = <T>(call: (ctx: ApiContext) => Promise<T>, language: string) => Promise<T>;

/**
 * Who the screens below call as: null (the default) is the signed-in member, through the session
 * store; a setup link's page provides one that calls with the link's token instead, so the team's
 * Domains and Single sign-on screens serve its IT contact unchanged.
 */
export const CallContext = createContext<Caller | null>(null);

/** Ask with the signed-in user's token (a fresh one once if it expired), in the element's language. */
export function useCall() {
  const { language } = useElement();
  const caller = useContext(CallContext);
  return useCallback(
    <T>(call: (ctx: ApiContext) => Promise<T>) =>
      caller ? caller(call, language) : sessionStore.getState().authorized(call, language),
    [caller, language],
  );
}

/** Whether the screen's calls are the signed-in member's (not a setup link's). */
export function useSignedInCalls(): boolean {
  return useContext(CallContext) === null;
}
