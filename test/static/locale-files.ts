/** The locale files as the static tests read them: flat `key.path → text` maps, by language and part. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TEXT_PARTS } from '../support/texts';

export const LOCALES = resolve(import.meta.dirname, '..', '..', 'src', 'i18n', 'locales');

/** The language chunk every page loads ('') and the parts only some screens load (src/i18n/parts.tsx). */
export const PARTS = ['', ...TEXT_PARTS];

export function flatten(value: unknown, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (child && typeof child === 'object') Object.assign(out, flatten(child, `${prefix}${key}.`));
    else out[`${prefix}${key}`] = String(child);
  }
  return out;
}

export const locale = (language: string, part = '') =>
  flatten(JSON.parse(readFileSync(join(LOCALES, part, `${language}.json`), 'utf8')));
