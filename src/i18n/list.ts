/**
 * Several names or labels joined the way the interface's language joins a list. Never `unit` lists or
 * `.join(' ')`: Intl's unit lists separate Japanese items with a bare space ("管理者 編集者"), where a
 * Japanese list takes "、" — which its conjunction lists use.
 */
const formats = new Map<string, Intl.ListFormat>();

function listFormat(language: string, style: Intl.ListFormatStyle): Intl.ListFormat {
  const key = `${language} ${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.ListFormat(language, { type: 'conjunction', style });
    formats.set(key, format);
  }
  return format;
}

/** A list shown as a value (a table cell, a fact): "Owner, Editor", "Inhaber und Bearbeiter", "管理者、編集者". */
export function listText(items: readonly string[], language: string): string {
  return listFormat(language, 'narrow').format(items);
}

/** A list inside a sentence: "turned on Google sign-in and password sign-in". */
export function sentenceList(items: readonly string[], language: string): string {
  return listFormat(language, 'long').format(items);
}
