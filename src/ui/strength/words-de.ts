import commonWords from '@zxcvbn-ts/language-de/dist/commonWords.json.esm.js';
import firstnames from '@zxcvbn-ts/language-de/dist/firstnames.json.esm.js';
import lastnames from '@zxcvbn-ts/language-de/dist/lastnames.json.esm.js';

/**
 * The de dictionaries of the strength estimate (password-strength.ts): one chunk. The German pack is of
 * zxcvbn-ts's previous major version: plain lists, used the same way.
 */
export const words: Record<string, string[]> = {
  'commonWords-de': commonWords,
  'firstnames-de': firstnames,
  'lastnames-de': lastnames,
};
