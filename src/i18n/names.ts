import type { Language } from '../contract/languages';

/** Each language by its own name (the language menu shows them the same in every language). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  es: 'Español',
  pt: 'Português',
  de: 'Deutsch',
  ja: '日本語',
  da: 'Dansk',
};
