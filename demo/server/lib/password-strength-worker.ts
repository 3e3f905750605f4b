import { parentPort } from 'node:worker_threads';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import type { Language } from '../../../src/contract/languages';
import { STRENGTH_WARNINGS, type StrengthWarning } from '../../../src/contract/schemas/password';
import type { StrengthAsked, StrengthAnswer } from './password-strength';

/**
 * The strength estimates, on a thread of their own (lib/password-strength.ts): zxcvbn takes from a few
 * to a hundred milliseconds a password, which the server's thread must not spend.
 */

type Dictionaries = Record<string, string[]>;

/** zxcvbn-ts's packs for our languages; the others get English and the common lists only. */
const PACKS: Partial<Record<Language, () => Promise<{ dictionary: Dictionaries }>>> = {
  en: () => import('@zxcvbn-ts/language-en'),
  fr: () => import('@zxcvbn-ts/language-fr'),
  es: () => import('@zxcvbn-ts/language-es-es'),
  pt: () => import('@zxcvbn-ts/language-pt-br'),
  de: () => import('@zxcvbn-ts/language-de'),
  ja: () => import('@zxcvbn-ts/language-ja'),
  it: () => import('@zxcvbn-ts/language-it'),
  nl: () => import('@zxcvbn-ts/language-nl-be'),
  pl: () => import('@zxcvbn-ts/language-pl'),
  fi: () => import('@zxcvbn-ts/language-fi'),
  cs: () => import('@zxcvbn-ts/language-cs'),
  ar: () => import('@zxcvbn-ts/language-ar'),
};

/** A pack's lists under names of their own: the older packs name theirs without the language. */
async function wordsOf(language: Language): Promise<Dictionaries> {
  const pack = PACKS[language];
  if (!pack) return {};
  const { dictionary } = await pack();
  return Object.fromEntries(
    Object.entries(dictionary).map(([name, words]) => [
      name.endsWith(`-${language}`) ? name : `${name}-${language}`,
      words,
    ]),
  );
}

type Check = (
  password: string,
  userInputs: string[],
) => { score: 0 | 1 | 2 | 3 | 4; warning: StrengthWarning | null };

const checks = new Map<Language, Promise<Check>>();

/**
 * A language's estimate, its dictionaries ranked once: the common lists, English (people write English
 * words in every language) and the language's own. Bounded so that no password costs more than a
 * fifth of a second or so: no Levenshtein distance (a scan of every list, ten times the cost), at most
 * 32 characters looked at (a longer password is no weaker than its first 32) and 20 look-alike
 * substitutions tried (docs/decisions/strength-on-server.md).
 */
function checkFor(language: Language): Promise<Check> {
  let pending = checks.get(language);
  if (!pending) {
    pending = Promise.all([wordsOf('en'), language === 'en' ? {} : wordsOf(language)]).then(
      ([english, own]) => {
        const zxcvbn = new ZxcvbnFactory({
          dictionary: { ...common.dictionary, ...english, ...own },
          graphs: common.adjacencyGraphs,
          useLevenshteinDistance: false,
          maxLength: 32,
          l33tMaxSubstitutions: 20,
        });
        return (password, userInputs) => {
          const { score, feedback, sequence } = zxcvbn.check(password, userInputs);
          const warning = STRENGTH_WARNINGS.find((name) => name === feedback.warning);
          if (warning) return { score, warning };
          // A lone common word gets no warning of zxcvbn's own: say so, as the meter's texts do.
          const [only] = sequence;
          const word =
            sequence.length === 1 &&
            only?.pattern === 'dictionary' &&
            /^(commonWords|wikipedia)/.test(String(only.dictionaryName));
          return { score, warning: word && score < 3 ? 'wordByItself' : null };
        };
      },
    );
    checks.set(language, pending);
    // A pack that failed to load is tried again at the next estimate.
    pending.catch(() => checks.delete(language));
  }
  return pending;
}

parentPort?.on('message', async ({ id, password, userInputs, language }: StrengthAsked) => {
  let answer: StrengthAnswer;
  try {
    answer = { id, strength: (await checkFor(language))(password, userInputs) };
  } catch (error) {
    answer = { id, error: String(error) };
  }
  parentPort?.postMessage(answer);
});
