import commonWords from '@zxcvbn-ts/language-en/dist/commonWords.json.mjs';
import firstnames from '@zxcvbn-ts/language-en/dist/firstnames.json.mjs';
import wordSequences from '@zxcvbn-ts/language-en/dist/wordSequences.json.mjs';

/** The en dictionaries of the strength estimate (password-strength.ts): one chunk. */
export const words: Record<string, string[]> = {
  'commonWords-en': commonWords,
  'firstnames-en': firstnames,
  ...wordSequences,
};
