import { useCallback } from 'react';
import type { ApiContext } from '../api/client';
import { sessionStore } from '../state/session';
import { useElement } from './element-context';

/** Ask with the signed-in user's token (a fresh one once if it expired), in the element's language. */
export function useCall() {
  const { language } = useElement();
  return useCallback(
    <T>(call: (ctx: ApiContext) => Promise<T>) => sessionStore.getState().authorized(call, language),
    [language],
  );
}
