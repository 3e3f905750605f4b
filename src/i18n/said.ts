import { useTranslation } from 'react-i18next';

/**
 * A message a screen keeps in its state (a field's error, a failure) as what to say, not as its words:
 * put into words at each render, in the element's language of the moment, so that it follows a change
 * of language while it is on screen.
 */
export type Said = readonly [key: string, values?: Record<string, unknown>];

/** The words for a kept message in the element's language; null for none. */
export function useSay(): (said: Said | null | undefined) => string | null {
  const { t } = useTranslation();
  return (said) => (said ? (said[1] ? t(said[0], said[1]) : t(said[0])) : null);
}
