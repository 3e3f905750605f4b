import type { TFunction } from 'i18next';

/** A screen the search finds: its address and the text keys it is found by (the manage area's table). */
export interface SearchableScreen {
  path: string;
  /** Its heading, shown as the result. */
  heading: string;
  /** Its navigation label. */
  nav: string;
  /** More words it is found by, comma-separated in the language. */
  words: string;
  /** Only team admins are offered it. */
  admin: boolean;
}

/**
 * Case, accents, spaces and punctuation left out, as the server's member search folds case and
 * accents: 'E-mail' finds 'Email address', 'two step' finds 'two-step sign-in'.
 */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** The list separators a language's words are written with (Latin, CJK and Arabic commas). */
const SEPARATORS = /[,、，،]/;

/**
 * The screens a query finds, in the table's order: those whose heading, navigation label or one of
 * whose words holds it; the admin-only ones only for a team admin.
 */
export function findScreens(
  screens: readonly SearchableScreen[],
  query: string,
  t: TFunction,
  admin: boolean,
): SearchableScreen[] {
  const folded = fold(query);
  if (!folded) return [];
  return screens.filter(
    (screen) =>
      (admin || !screen.admin) &&
      [t(screen.heading), t(screen.nav), ...t(screen.words).split(SEPARATORS)].some((text) =>
        fold(text).includes(folded),
      ),
  );
}
