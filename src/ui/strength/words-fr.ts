import commonWords from '@zxcvbn-ts/language-fr/dist/commonWords.json.mjs';
import firstnames from '@zxcvbn-ts/language-fr/dist/firstnames.json.mjs';
import lastnames from '@zxcvbn-ts/language-fr/dist/lastnames.json.mjs';
import wordSequences from '@zxcvbn-ts/language-fr/dist/wordSequences.json.mjs';

/** The fr dictionaries of the strength estimate (password-strength.ts): one chunk. */
export const words: Record<string, string[]> = {
  'commonWords-fr': commonWords,
  'firstnames-fr': firstnames,
  'lastnames-fr': lastnames,
  ...wordSequences,
};
