import { useCallback, useEffect, useState } from 'react';

/**
 * The user closed the browser's passkey prompt, or it timed out: WebAuthn says `NotAllowedError` for
 * both (on purpose, so a page cannot tell which), and @simplewebauthn keeps that name on its own error.
 */
export function isCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}

/** Something loaded from the server: not yet, failed, or there. */
export type Loaded<T> = T | null | 'failed';

/** Load with `load` now and again on `reload()`; the last answer wins. */
export function useLoaded<T>(load: () => Promise<T>): [Loaded<T>, () => void, (value: T) => void] {
  const [value, setValue] = useState<Loaded<T>>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (answer) => live && setValue(answer),
      () => live && setValue('failed'),
    );
    return () => {
      live = false;
    };
  }, [load, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return [value, reload, setValue];
}
