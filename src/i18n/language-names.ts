import type { Language } from '../contract/languages';

/**
 * Each language by its own name (the language menu shows them the same in every language). A module
 * of its own, imported by the header's menu only: the sign-in page, which has no menu, does not carry
 * twenty names.
 */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  es: 'Español',
  pt: 'Português',
  de: 'Deutsch',
  ja: '日本語',
  da: 'Dansk',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  sv: 'Svenska',
  nb: 'Norsk bokmål',
  fi: 'Suomi',
  cs: 'Čeština',
  tr: 'Türkçe',
  uk: 'Українська',
  'zh-Hans': '简体中文',
  ko: '한국어',
  ar: 'العربية',
  he: 'עברית',
};
