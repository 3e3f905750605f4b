import { useCallback, useEffect, useState } from 'react';
import { getPasswordOptions, type PasswordOptions } from '../../api/endpoints';
import { sessionStore } from '../../state/session';

/** The password options (spec §3), loaded once for the panels that show them, and reloadable. */
export function usePasswordOptions(language: string): [PasswordOptions | null | 'failed', () => void] {
  const [options, setOptions] = useState<PasswordOptions | null | 'failed'>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    sessionStore
      .getState()
      .authorized((ctx) => getPasswordOptions(ctx), language)
      .then(
        (loaded) => live && setOptions(loaded),
        () => live && setOptions('failed'),
      );
    return () => {
      live = false;
    };
  }, [language, version]);
  const reload = useCallback(() => {
    // After a failure the panels show the spinner again while asking; loaded options stay on screen
    // until the new ones arrive (a reload after a change must not take the panels away meanwhile).
    setOptions((current) => (current === 'failed' ? null : current));
    setVersion((v) => v + 1);
  }, []);
  return [options, reload];
}
