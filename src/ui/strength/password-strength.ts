import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as common } from '@zxcvbn-ts/language-common';
import type { Language } from '../../contract/languages';

/**
 * How hard a new password is to guess, by zxcvbn-ts: its score (0–4) and the pattern that decides it,
 * named by zxcvbn's own keys (no zxcvbn translations: the meter words them in our texts, in every
 * language). Advice only: the server decides (its rules and the breach check).
 *
 * The dictionaries are the bulk of it: the common passwords and keyboard layouts every language shares,
 * and the words and names of the page's language, each language its own chunk (Danish has no pack).
 * The large Wikipedia lists (and the English surnames) are left out: they weigh most and add little
 * beyond the common words (docs/decisions/breached-passwords.md).
 */

type Dictionaries = Record<string, string[]>;

/**
 * Each language's words and names, a chunk of their own. The languages without a pack in use here
 * (Danish, and the thirteen added later) get the common lists only, as zxcvbn does without a language.
 */
const PACKS: Record<Language, () => Promise<Dictionaries>> = {
  en: async () => (await import('./words-en')).words,
  fr: async () => (await import('./words-fr')).words,
  es: async () => (await import('./words-es')).words,
  pt: async () => (await import('./words-pt')).words,
  de: async () => (await import('./words-de')).words,
  ja: async () => (await import('./words-ja')).words,
  da: async () => ({}),
  it: async () => ({}),
  nl: async () => ({}),
  pl: async () => ({}),
  sv: async () => ({}),
  nb: async () => ({}),
  fi: async () => ({}),
  cs: async () => ({}),
  tr: async () => ({}),
  uk: async () => ({}),
  'zh-Hans': async () => ({}),
  ko: async () => ({}),
  ar: async () => ({}),
  he: async () => ({}),
};

/** zxcvbn's warnings the meter has words for (`pwned` is zxcvbn's own online check, not used). */
export const WARNINGS = [
  'straightRow',
  'keyPattern',
  'simpleRepeat',
  'extendedRepeat',
  'sequences',
  'recentYears',
  'dates',
  'topTen',
  'topHundred',
  'common',
  'similarToCommon',
  'wordByItself',
  'namesByThemselves',
  'commonNames',
  'userInputs',
] as const;
export type Warning = (typeof WARNINGS)[number];

export interface Strength {
  /** 0 (too easy to guess) … 4 (very hard to guess). */
  score: 0 | 1 | 2 | 3 | 4;
  /** The pattern that makes it easy to guess, if one does. */
  warning: Warning | null;
}

export type Estimate = (password: string, userInputs?: string[]) => Strength;

const estimators = new Map<Language, Promise<Estimate>>();

/** The estimator for a language: its dictionaries loaded and ranked once (a failed load may be retried). */
export function estimatorFor(language: Language): Promise<Estimate> {
  let pending = estimators.get(language);
  if (!pending) {
    pending = PACKS[language]().then((words) => {
      const zxcvbn = new ZxcvbnFactory({
        dictionary: { ...common, ...words },
        graphs: adjacencyGraphs,
        useLevenshteinDistance: true,
      });
      return (password, userInputs = []) => {
        const { score, feedback, sequence } = zxcvbn.check(password, userInputs);
        if ((WARNINGS as readonly string[]).includes(feedback.warning ?? ''))
          return { score, warning: feedback.warning as Warning };
        // zxcvbn words a lone dictionary word only for its Wikipedia lists, which are left out here.
        const [only] = sequence;
        const word =
          sequence.length === 1 &&
          only?.pattern === 'dictionary' &&
          /^commonWords/.test(String(only.dictionaryName));
        return { score, warning: word && score < 3 ? 'wordByItself' : null };
      };
    });
    estimators.set(language, pending);
    pending.catch(() => estimators.delete(language));
  }
  return pending;
}
