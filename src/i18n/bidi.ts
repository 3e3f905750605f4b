/**
 * Bidi isolation of the values filled into a sentence. A name, a team or an address keeps its own
 * direction and does not pull the sentence's punctuation or neighbouring words into it: "أحمد changed
 * the team's name." or, in Arabic, "غيّر Ada Lovelace (ada@example.com) اسم الفريق". Each value goes
 * between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (U+2068, U+2069: invisible, the plain-text
 * form of `<bdi>`), which the Unicode bidi algorithm treats as one neutral character within the sentence.
 */
export const FSI = '\u2068';
export const PDI = '\u2069';

/** Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko… and their presentation forms). */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;

/** i18next's own options among `t()`'s: never filled into the text. */
const NOT_VALUES = new Set([
  'lng',
  'lngs',
  'ns',
  'context',
  'count',
  'ordinal',
  'defaultValue',
  'returnObjects',
  'returnDetails',
  'joinArrays',
  'postProcess',
  'interpolation',
  'skipInterpolation',
  'replace',
  'keyPrefix',
  'fallbackLng',
]);

/**
 * `t()`'s options with each string value isolated: in a right-to-left sentence every one (a Latin name
 * or an address would otherwise swap places with its punctuation); in a left-to-right sentence those
 * holding right-to-left letters. Left-to-right values in a left-to-right sentence need nothing and
 * stay as they are.
 */
export function isolateValues(
  options: Record<string, unknown>,
  direction: 'ltr' | 'rtl',
): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const [name, value] of Object.entries(options)) {
    if (typeof value !== 'string' || !value || NOT_VALUES.has(name) || name.startsWith('defaultValue'))
      continue;
    if (value.startsWith(FSI)) continue;
    if (direction === 'ltr' && !RIGHT_TO_LEFT.test(value)) continue;
    out ??= { ...options };
    out[name] = `${FSI}${value}${PDI}`;
  }
  return out ?? options;
}
