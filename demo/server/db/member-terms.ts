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

/** A text a member is found by, and how far it is shadowed by an earlier one of theirs. */
export interface MemberTerm {
  term: string;
  /**
   * The longest start this term shares with an earlier (smaller) term of the same member. A search
   * whose query is at most this long matches that earlier term too, so it lists the member there and
   * skips this row — the member appears once, without a look at their other rows.
   */
  shadow: number;
}

/**
 * The texts a member is found by, each as a prefix: the name from each of its words on ("ada king
 * lovelace", "king lovelace", "lovelace"), so a search for the start of any word — or of several words in
 * a row — matches, and the e-mail address.
 */
export function memberTerms(name: string, email: string): MemberTerm[] {
  const words = fold(name).split(' ').filter(Boolean);
  const set = new Set(words.map((_, index) => words.slice(index).join(' ')));
  const address = fold(email);
  if (address) set.add(address);
  // Compared as the databases compare them (byte order of UTF-8, as `collate "C"` and SQLite's BINARY).
  const terms = [...set].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return terms.map((term, index) => ({
    term,
    shadow: Math.max(0, ...terms.slice(0, index).map((earlier) => commonStart(earlier, term))),
  }));
}

/** How many leading code units two texts share. */
function commonStart(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
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
