// The language packs' dictionary files, imported one by one (password-strength.ts): each is a
// list of words, ranked most common first. The packages type only their index, which loads them all.
declare module '@zxcvbn-ts/*.json.mjs' {
  const words: string[];
  export default words;
}
declare module '@zxcvbn-ts/*.json.esm.js' {
  const words: string[];
  export default words;
}
// Word sequences (numbers, months, days…): several named lists in one file.
declare module '@zxcvbn-ts/language-en/dist/wordSequences.json.mjs' {
  const lists: Record<string, string[]>;
  export default lists;
}
declare module '@zxcvbn-ts/language-fr/dist/wordSequences.json.mjs' {
  const lists: Record<string, string[]>;
  export default lists;
}
declare module '@zxcvbn-ts/language-es-es/dist/wordSequences.json.mjs' {
  const lists: Record<string, string[]>;
  export default lists;
}
declare module '@zxcvbn-ts/language-pt-br/dist/wordSequences.json.mjs' {
  const lists: Record<string, string[]>;
  export default lists;
}
