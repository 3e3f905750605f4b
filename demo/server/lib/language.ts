import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_COOKIE,
  matchLanguage,
  type Language,
} from '../../../src/contract/languages';
import { cookiesOf } from './cookies';

/** Accept-Language tags, most wanted first (q-values honoured). */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: (tag ?? '').trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * The language a request asks for: the elements' preference cookie, then Accept-Language (the elements
 * send their own language there), each tag exactly or by its language part; null when none is ours.
 */
export function requestLanguage(request: FastifyRequest): Language | null {
  for (const tag of [
    cookiesOf(request)[LANGUAGE_COOKIE],
    ...acceptedLanguages(request.headers['accept-language']),
  ]) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return null;
}

/** The language to answer in: the request's, then the user's known one, then English. */
export function answerLanguage(request: FastifyRequest, userLanguage?: string | null): Language {
  return requestLanguage(request) ?? matchLanguage(userLanguage) ?? DEFAULT_LANGUAGE;
}

/**
 * The first supported language of an OpenID request's `ui_locales` (space-separated tags, the app's
 * preference order); null when it names none of ours.
 */
export function uiLocalesLanguage(uiLocales: unknown): Language | null {
  if (typeof uiLocales !== 'string') return null;
  for (const tag of uiLocales.split(' ')) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return null;
}

/**
 * The language of a page answering an app's sign-in request: the request's `ui_locales`, then the
 * browser's Accept-Language, then English. Not the portal's language cookie: the app's choice wins.
 */
export function signInPageLanguage(uiLocales: unknown, acceptLanguage: string | undefined): Language {
  return (
    uiLocalesLanguage(uiLocales) ??
    acceptedLanguages(acceptLanguage)
      .map(matchLanguage)
      .find((match) => match !== null) ??
    DEFAULT_LANGUAGE
  );
}
