import i18next from 'i18next';
import { LANGUAGES, type Language } from '../../../src/contract/languages';
import type { PasswordProblem } from '../../../src/contract/password-rules';
import { SERVER_LOCALES } from './locales';

/**
 * Everything the server writes for people — mail and the messages the screens show as they are — in the
 * interface's languages: i18next resources, as the elements' locale files are (`{{name}}` placeholders),
 * read through the server's own i18next instance ({@link serverText}). The type makes a missing text in
 * any language a compile error.
 */
export interface ServerTexts {
  reset: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  /** A sign-in code and its one-click link, in one mail (routes/email-code.ts). */
  emailCode: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    browser: string;
    ignore: string;
  };
  /** Starting a team: the code and its one-click link that verify the address (routes/sign-up.ts). */
  signUp: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  changed: {
    subject: string;
    greeting: string;
    body: string;
    warning: string;
  };
  invite: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  /** A setup link: to the company's IT contact, from a team owner, for the domains and single sign-on. */
  setup: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  /** Notices about the account's sign-in security (two-step on/off, a recovery code used, a passkey added). */
  notice: {
    greeting: string;
    warning: string;
    twoStepOn: { subject: string; body: string };
    twoStepOff: { subject: string; body: string };
    recoveryUsed: { subject: string; body: string };
    passkeyAdded: { subject: string; body: string };
  };
  newDevice: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    warning: string;
  };
  emailConfirm: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  emailNotice: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    warning: string;
  };
  /** To a team's owners: a verified domain's DNS record stayed missing past the grace period. */
  domainLost: {
    subject: string;
    greeting: string;
    body: string;
    again: string;
  };
  /** To a team's owners: its streaming endpoint failed for a day and no longer receives events. */
  streamDisabled: {
    subject: string;
    greeting: string;
    body: string;
    again: string;
  };
  /** A request to join a team from its domain: the code that verifies the address. */
  joinCode: {
    subject: string;
    greeting: string;
    body: string;
    expiry: string;
    ignore: string;
  };
  /** A request to join was approved (by an admin, or by the domain's automatic joining): the link. */
  joinApproved: {
    subject: string;
    greeting: string;
    body: string;
    action: string;
    expiry: string;
    ignore: string;
  };
  /** A request to join was declined: a neutral note. */
  joinDeclined: {
    subject: string;
    greeting: string;
    body: string;
  };
  footer: string;
  policy: Record<PasswordProblem, string>;
  resetInvalid: string;
  resetMismatch: string;
  confirmMismatch: string;
  /**
   * The page shown when an app's sign-in request cannot go on (the provider refused it, or it expired):
   * the browser cannot be sent back to the app, so the user is told to go back themselves.
   */
  signInRefused: {
    title: string;
    retry: string;
    /** The link to the portal: the person may be signed in already (a sign-up finished on another device). */
    account: string;
    code: string;
  };
  signOut: {
    title: string;
    body: string;
    confirm: string;
    stay: string;
    done: string;
    close: string;
  };
  device: {
    title: string;
    enter: string;
    code: string;
    continue: string;
    wrongCode: string;
    expired: string;
    used: string;
    aborted: string;
    error: string;
    tooMany: string;
    confirmTitle: string;
    confirmBody: string;
    notYou: string;
    confirm: string;
    cancel: string;
    doneTitle: string;
    doneBody: string;
  };
}

/**
 * Each language's texts are data, one JSON file per language in `locales/` (a new language is a file
 * and a line in `locales/index.ts`); this assignment is their type check: a text missing in any
 * language fails to compile, and the static test (test/static/locales.test.ts) refuses one too many.
 */
export const TEXTS: Record<Language, ServerTexts> = SERVER_LOCALES;

/** A dotted path to a text of {@link ServerTexts} (`reset.subject`, `policy.tooShort`…). */
export type TextKey<T = ServerTexts> = {
  [K in keyof T & string]: T[K] extends string ? K : `${K}.${TextKey<T[K]>}`;
}[keyof T & string];

/** The server's own i18next instance: never a global one, all languages in memory from the start. */
const i18n = i18next.createInstance();
void i18n.init({
  initAsync: false,
  resources: Object.fromEntries(LANGUAGES.map((language) => [language, { translation: TEXTS[language] }])),
  // Every language has every text (the type above): no fallback is ever needed.
  fallbackLng: false,
  nsSeparator: false,
  // Mail HTML escapes the whole filled text; a message goes out as JSON.
  interpolation: { escapeValue: false },
});

/** A text in a language, its `{{name}}` placeholders filled from `values`. */
export function serverText(
  language: Language,
  key: TextKey,
  values: Record<string, string | number> = {},
): string {
  return i18n.t(key, { ...values, lng: language });
}
