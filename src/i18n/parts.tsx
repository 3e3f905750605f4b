import { useEffect, useState, type ReactNode } from 'react';
import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import { afterEvaluation } from '../after-evaluation';
import type { Resources } from './chunks';
import { matchLanguage, type Language } from '../contract/languages';
import { beforeLanguageSwitch } from './instance';

/**
 * Texts that only some screens need, kept out of the language chunk every page loads: the manage
 * area's navigation, headings and own panels ('manage'; the search page's index shows them too), the
 * team administration screens ('admin'), asking to join a team from the team step ('join'), the
 * invitation screen ('invite'), the user's own sessions, security
 * activity, QR code login and developer tools ('account'), passkeys and two-step sign-in ('security':
 * the manage area's screen and the second step at sign-in), and the password strength meter under every
 * new-password field ('strength'). Each part is one lazily loaded chunk per language, merged into the
 * element's i18next store when a screen that needs it first renders.
 */
export type TextPart = 'manage' | 'join' | 'admin' | 'invite' | 'account' | 'security' | 'strength';

type Loader = () => Promise<{ default: Resources }>;

const loaders: Record<TextPart, Record<Language, Loader>> = {
  join: {
    en: () => import('./locales/join/en.json'),
    fr: () => import('./locales/join/fr.json'),
    es: () => import('./locales/join/es.json'),
    pt: () => import('./locales/join/pt.json'),
    de: () => import('./locales/join/de.json'),
    ja: () => import('./locales/join/ja.json'),
    da: () => import('./locales/join/da.json'),
    ar: () => import('./locales/join/ar.json'),
    it: () => import('./locales/join/it.json'),
    nl: () => import('./locales/join/nl.json'),
    pl: () => import('./locales/join/pl.json'),
    sv: () => import('./locales/join/sv.json'),
    nb: () => import('./locales/join/nb.json'),
    fi: () => import('./locales/join/fi.json'),
    cs: () => import('./locales/join/cs.json'),
    tr: () => import('./locales/join/tr.json'),
    uk: () => import('./locales/join/uk.json'),
    'zh-Hans': () => import('./locales/join/zh-Hans.json'),
    ko: () => import('./locales/join/ko.json'),
    he: () => import('./locales/join/he.json'),
  },
  manage: {
    en: () => import('./locales/manage/en.json'),
    fr: () => import('./locales/manage/fr.json'),
    es: () => import('./locales/manage/es.json'),
    pt: () => import('./locales/manage/pt.json'),
    de: () => import('./locales/manage/de.json'),
    ja: () => import('./locales/manage/ja.json'),
    da: () => import('./locales/manage/da.json'),
    ar: () => import('./locales/manage/ar.json'),
    it: () => import('./locales/manage/it.json'),
    nl: () => import('./locales/manage/nl.json'),
    pl: () => import('./locales/manage/pl.json'),
    sv: () => import('./locales/manage/sv.json'),
    nb: () => import('./locales/manage/nb.json'),
    fi: () => import('./locales/manage/fi.json'),
    cs: () => import('./locales/manage/cs.json'),
    tr: () => import('./locales/manage/tr.json'),
    uk: () => import('./locales/manage/uk.json'),
    'zh-Hans': () => import('./locales/manage/zh-Hans.json'),
    ko: () => import('./locales/manage/ko.json'),
    he: () => import('./locales/manage/he.json'),
  },
  admin: {
    en: () => import('./locales/admin/en.json'),
    fr: () => import('./locales/admin/fr.json'),
    es: () => import('./locales/admin/es.json'),
    pt: () => import('./locales/admin/pt.json'),
    de: () => import('./locales/admin/de.json'),
    ja: () => import('./locales/admin/ja.json'),
    da: () => import('./locales/admin/da.json'),
    ar: () => import('./locales/admin/ar.json'),
    it: () => import('./locales/admin/it.json'),
    nl: () => import('./locales/admin/nl.json'),
    pl: () => import('./locales/admin/pl.json'),
    sv: () => import('./locales/admin/sv.json'),
    nb: () => import('./locales/admin/nb.json'),
    fi: () => import('./locales/admin/fi.json'),
    cs: () => import('./locales/admin/cs.json'),
    tr: () => import('./locales/admin/tr.json'),
    uk: () => import('./locales/admin/uk.json'),
    'zh-Hans': () => import('./locales/admin/zh-Hans.json'),
    ko: () => import('./locales/admin/ko.json'),
    he: () => import('./locales/admin/he.json'),
  },
  account: {
    en: () => import('./locales/account/en.json'),
    fr: () => import('./locales/account/fr.json'),
    es: () => import('./locales/account/es.json'),
    pt: () => import('./locales/account/pt.json'),
    de: () => import('./locales/account/de.json'),
    ja: () => import('./locales/account/ja.json'),
    da: () => import('./locales/account/da.json'),
    ar: () => import('./locales/account/ar.json'),
    it: () => import('./locales/account/it.json'),
    nl: () => import('./locales/account/nl.json'),
    pl: () => import('./locales/account/pl.json'),
    sv: () => import('./locales/account/sv.json'),
    nb: () => import('./locales/account/nb.json'),
    fi: () => import('./locales/account/fi.json'),
    cs: () => import('./locales/account/cs.json'),
    tr: () => import('./locales/account/tr.json'),
    uk: () => import('./locales/account/uk.json'),
    'zh-Hans': () => import('./locales/account/zh-Hans.json'),
    ko: () => import('./locales/account/ko.json'),
    he: () => import('./locales/account/he.json'),
  },
  security: {
    en: () => import('./locales/security/en.json'),
    fr: () => import('./locales/security/fr.json'),
    es: () => import('./locales/security/es.json'),
    pt: () => import('./locales/security/pt.json'),
    de: () => import('./locales/security/de.json'),
    ja: () => import('./locales/security/ja.json'),
    da: () => import('./locales/security/da.json'),
    ar: () => import('./locales/security/ar.json'),
    it: () => import('./locales/security/it.json'),
    nl: () => import('./locales/security/nl.json'),
    pl: () => import('./locales/security/pl.json'),
    sv: () => import('./locales/security/sv.json'),
    nb: () => import('./locales/security/nb.json'),
    fi: () => import('./locales/security/fi.json'),
    cs: () => import('./locales/security/cs.json'),
    tr: () => import('./locales/security/tr.json'),
    uk: () => import('./locales/security/uk.json'),
    'zh-Hans': () => import('./locales/security/zh-Hans.json'),
    ko: () => import('./locales/security/ko.json'),
    he: () => import('./locales/security/he.json'),
  },
  strength: {
    en: () => import('./locales/strength/en.json'),
    fr: () => import('./locales/strength/fr.json'),
    es: () => import('./locales/strength/es.json'),
    pt: () => import('./locales/strength/pt.json'),
    de: () => import('./locales/strength/de.json'),
    ja: () => import('./locales/strength/ja.json'),
    da: () => import('./locales/strength/da.json'),
    ar: () => import('./locales/strength/ar.json'),
    it: () => import('./locales/strength/it.json'),
    nl: () => import('./locales/strength/nl.json'),
    pl: () => import('./locales/strength/pl.json'),
    sv: () => import('./locales/strength/sv.json'),
    nb: () => import('./locales/strength/nb.json'),
    fi: () => import('./locales/strength/fi.json'),
    cs: () => import('./locales/strength/cs.json'),
    tr: () => import('./locales/strength/tr.json'),
    uk: () => import('./locales/strength/uk.json'),
    'zh-Hans': () => import('./locales/strength/zh-Hans.json'),
    ko: () => import('./locales/strength/ko.json'),
    he: () => import('./locales/strength/he.json'),
  },
  invite: {
    en: () => import('./locales/invite/en.json'),
    fr: () => import('./locales/invite/fr.json'),
    es: () => import('./locales/invite/es.json'),
    pt: () => import('./locales/invite/pt.json'),
    de: () => import('./locales/invite/de.json'),
    ja: () => import('./locales/invite/ja.json'),
    da: () => import('./locales/invite/da.json'),
    ar: () => import('./locales/invite/ar.json'),
    it: () => import('./locales/invite/it.json'),
    nl: () => import('./locales/invite/nl.json'),
    pl: () => import('./locales/invite/pl.json'),
    sv: () => import('./locales/invite/sv.json'),
    nb: () => import('./locales/invite/nb.json'),
    fi: () => import('./locales/invite/fi.json'),
    cs: () => import('./locales/invite/cs.json'),
    tr: () => import('./locales/invite/tr.json'),
    uk: () => import('./locales/invite/uk.json'),
    'zh-Hans': () => import('./locales/invite/zh-Hans.json'),
    ko: () => import('./locales/invite/ko.json'),
    he: () => import('./locales/invite/he.json'),
  },
};

const requested = new Map<string, Promise<Resources>>();
/** The parts (`part/language`) already in the store, which the bundle's one i18next store holds. */
const added = new Set<string>();

/** A part's texts in a language; each chunk is requested once (a failed request may be tried again). */
export function loadTextPart(part: TextPart, language: Language): Promise<Resources> {
  const key = `${part}/${language}`;
  let pending = requested.get(key);
  if (!pending) {
    pending = afterEvaluation.then(loaders[part][language]).then((module) => module.default);
    requested.set(key, pending);
    pending.catch(() => requested.delete(key));
  }
  return pending;
}

/**
 * Put a part's texts into an i18next store, in its current language, once: resolves when they are in.
 * Every clone of the instance shares one store, so a part is added once per language for the page.
 */
export async function addTextPart(i18n: I18n, part: TextPart): Promise<void> {
  const language = matchLanguage(i18n.language) ?? 'en';
  const key = `${part}/${language}`;
  if (added.has(key)) return;
  const resources = await loadTextPart(part, language);
  i18n.addResourceBundle(language, 'translation', resources, true, false);
  added.add(key);
}

// An element switching language brings the parts in use on the page along, so its screen is not put
// back to loading (and what it holds lost) while they arrive.
beforeLanguageSwitch((i18n) => {
  const inUse = new Set([...added].map((key) => key.split('/')[0] as TextPart));
  return Promise.all([...inUse].map((part) => addTextPart(i18n, part)));
});

export type TextPartState = 'loading' | 'ready' | 'failed';

/**
 * Whether a part's texts — or each of several parts', asked for together — are in the element's
 * i18next store, loading them if not.
 */
export function useTextPart(part: TextPart | readonly TextPart[]): TextPartState {
  const { i18n } = useTranslation();
  const language = matchLanguage(i18n.language) ?? 'en';
  const parts: readonly TextPart[] = typeof part === 'string' ? [part] : part;
  const keys = parts.map((name) => `${name}/${language}`);
  const key = keys.join(' ');
  const [state, setState] = useState<{ key: string; value: TextPartState } | null>(null);

  useEffect(() => {
    const missing = key.split(' ').filter((one) => !added.has(one));
    if (missing.length === 0) return;
    let live = true;
    Promise.all(missing.map((one) => addTextPart(i18n, one.split('/')[0] as TextPart))).then(
      () => live && setState({ key, value: 'ready' }),
      () => live && setState({ key, value: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [i18n, key]);

  if (keys.every((one) => added.has(one))) return 'ready';
  return state?.key === key ? state.value : 'loading';
}

/** Renders `children` once a part's texts are in; `waiting` meanwhile, `failed` if they cannot load. */
export function WithTextPart({
  part,
  waiting,
  failed,
  children,
}: {
  part: TextPart | readonly TextPart[];
  waiting: ReactNode;
  failed: ReactNode;
  children: ReactNode;
}) {
  const state = useTextPart(part);
  return <>{state === 'ready' ? children : state === 'failed' ? failed : waiting}</>;
}
