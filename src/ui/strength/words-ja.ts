import commonWords from '@zxcvbn-ts/language-ja/dist/commonWords.json.esm.js';
import firstnames from '@zxcvbn-ts/language-ja/dist/firstnames.json.esm.js';
import lastnames from '@zxcvbn-ts/language-ja/dist/lastnames.json.esm.js';

/**
 * The ja dictionaries of the strength estimate (password-strength.ts): one chunk. The Japanese pack is of
 * zxcvbn-ts's previous major version: plain lists, used the same way.
 */
export const words: Record<string, string[]> = {
  'commonWords-ja': commonWords,
  'firstnames-ja': firstnames,
  'lastnames-ja': lastnames,
};
