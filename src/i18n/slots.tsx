import { Fragment, type ReactNode } from 'react';
import type { Translate } from './index';

// Private-use characters: they never occur in a translation, so they cannot be confused with its text.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKER = new RegExp(`${OPEN}(\\w+)${CLOSE}`);

/**
 * Translate a sentence that has elements inside it (a link in the footer's copyright line): each slot is
 * a placeholder of the key, so translators can move it where their language needs it, and the sentence
 * is never glued together from fragments.
 */
export function translateWithSlots(
  t: Translate,
  key: string,
  values: Record<string, unknown>,
  slots: Record<string, ReactNode>,
): ReactNode[] {
  const markers = Object.fromEntries(Object.keys(slots).map((name) => [name, `${OPEN}${name}${CLOSE}`]));
  const parts = t(key, { ...values, ...markers }).split(MARKER);
  // split() with a capturing group alternates text and slot names: text, name, text, name, text…
  return parts.map((part, index) =>
    index % 2 === 0 ? part : <Fragment key={`${part}-${index}`}>{slots[part] ?? part}</Fragment>,
  );
}
