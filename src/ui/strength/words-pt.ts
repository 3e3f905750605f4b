import commonWords from '@zxcvbn-ts/language-pt-br/dist/commonWords.json.mjs';
import firstnames from '@zxcvbn-ts/language-pt-br/dist/firstnames.json.mjs';
import lastnames from '@zxcvbn-ts/language-pt-br/dist/lastnames.json.mjs';
import wordSequences from '@zxcvbn-ts/language-pt-br/dist/wordSequences.json.mjs';

/** The pt dictionaries of the strength estimate (password-strength.ts): one chunk. */
export const words: Record<string, string[]> = {
  'commonWords-pt': commonWords,
  'firstnames-pt': firstnames,
  'lastnames-pt': lastnames,
  ...wordSequences,
};
