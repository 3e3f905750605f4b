import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/**
 * A message kept for later (a field's error, a failure, a notice) as what to say, not as its words: put
 * into words at each render, in the element's language of the moment, so that it follows a change of
 * language while it is on screen. A text's key and its values; or, for a message made of several texts,
 * what makes its words from `t`.
 */
export type Said = readonly [key: string, values?: Record<string, unknown>] | Composed;

/** A message made of several texts (a sentence around another text, a list): its words from `t`. */
export interface Composed {
  readonly compose: (t: TFunction) => string;
}

/** A message whose words take more than one text (see {@link Said}). */
export function composed(compose: (t: TFunction) => string): Composed {
  return { compose };
}

/**
 * Words that stay as they are: a message the server put into words (in the language the request asked
 * for, e.g. its password policy's).
 */
export function asIs(words: string): Composed {
  return { compose: () => words };
}

/** The words of a kept message with `t`. */
export function sayWith(t: TFunction, said: Said): string {
  if ('compose' in said) return said.compose(t);
  return said[1] ? t(said[0], said[1]) : t(said[0]);
}

/** The words for a kept message in the element's language; undefined for none. */
export function useSay(): (said: Said | null | undefined) => string | undefined {
  const { t } = useTranslation();
  return (said) => (said ? sayWith(t, said) : undefined);
}
