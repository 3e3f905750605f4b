import commonWords from '@zxcvbn-ts/language-es-es/dist/commonWords.json.mjs';
import firstnames from '@zxcvbn-ts/language-es-es/dist/firstnames.json.mjs';
import lastnames from '@zxcvbn-ts/language-es-es/dist/lastnames.json.mjs';
import wordSequences from '@zxcvbn-ts/language-es-es/dist/wordSequences.json.mjs';

/** The es dictionaries of the strength estimate (password-strength.ts): one chunk. */
export const words: Record<string, string[]> = {
  'commonWords-es': commonWords,
  'firstnames-es': firstnames,
  'lastnames-es': lastnames,
  ...wordSequences,
};
