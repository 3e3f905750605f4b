/**
 * How members are found and ordered (the member list and search): texts are folded — compatibility
 * decomposed, accents dropped, lower-cased, runs of white space made one space — so "José" is found as
 * "jose" and sorts with it. These are plain functions: the repositories store their results, and the
 * migration that brought them in filled them for the members there were.
 */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .normalize('NFC')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** The key a member's name sorts by in the member list. */
export const sortKey = (name: string): string => fold(name);

/**
 * The texts a member is found by, each as a prefix: the name from each of its words on ("ada king
 * lovelace", "king lovelace", "lovelace"), so a search for the start of any word — or of several words in
 * a row — matches, and the e-mail address.
 */
export function memberTerms(name: string, email: string): string[] {
  const words = fold(name).split(' ').filter(Boolean);
  const terms = new Set(words.map((_, index) => words.slice(index).join(' ')));
  const address = fold(email);
  if (address) terms.add(address);
  return [...terms];
}

/**
 * The last character there is: every term that starts with `prefix` is at least `prefix` and below
 * `prefix + TOP`, in the byte order both databases compare these columns in (UTF-8 of U+10FFFF is the
 * largest sequence).
 */
const TOP = '\u{10FFFF}';

/** The range of terms a search matches: from the folded query (inclusive) to its end (exclusive). */
export function prefixRange(query: string): { from: string; to: string } | null {
  const from = fold(query);
  return from ? { from, to: `${from}${TOP}` } : null;
}
