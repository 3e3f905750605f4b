/**
 * The pseudo-locale's checks (test/support/screens-sweep.ts looks at every state in it; the provider's own
 * pages in test/e2e/pseudo-locale.test.ts): every English text accented, 40% longer, wrapped in marks and
 * served as a language's chunks. Any text on screen — a text node, or an aria-label, placeholder, title or
 * alt — without the marks did not come from the locale files, or did not follow a change of language:
 * an untranslated string. Data (names, e-mails, dates, codes, brand and policy names) is allowed;
 * policy descriptions are translated on the client by policy name, so they must carry the marks too.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { LANGUAGE_NAMES } from '../../src/i18n/language-names';
import { englishAs, PSEUDO_MARKS, pseudoLocale, TEXT_PARTS, translator, type T, type Texts } from './texts';

/** Text that is data, not interface: allowed without the marker. */
const DATA = [
  /^[\d\s\p{P}\p{S}]+$/u, // numbers, punctuation, symbols
  /@/, // e-mail addresses
  /^(Intoware|Onsight|Schenck|WorkfloPlus|Acme|Globex|Umbrella|Acme SSO|Google|Microsoft|Apple)$/,
  /^(intoware|onsight|SCHENCK)$/, // the brands' wordmarks (SVG lettering of the brand names)
  /^(Ada Lovelace|Carol Diaz|Bob Stone|Dan Okafor|Lee Locke|Jordan Avery|Priya Natarajan|Tomás Ortega|Kim Lund|Noel Ward)$/,
  /^[A-Z]{1,2}$/, // initials
  /^[A-Z][a-z]+_[A-Z][a-z]+$/, // policy names (server data)
  new RegExp(`^(${Object.values(LANGUAGE_NAMES).join('|')})$`), // the language menu's endonyms
  /^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, // tokens
  /^https?:\/\//, // addresses
  /^workflow$/, // the search query typed in the test
  /^(Operations|Platform Engineering)$/, // groups' names (team data)
  /^Kim Lee$/, // a join request's name (the asker's data)
  /^(Nia Newcomer|Rocket Science)$/, // a new team's owner and name (sign-up data)
  /^Pixel 8$/, // a passkey's name (user data)
  /^Partner Board \(demo\)$/, // an app's name (its client metadata)
  /^Acme (dashboard|intranet|storage reporter)$/, // a team's apps' names (team data)
  /^app-[A-Za-z0-9_-]{22}$/, // a team app's client id
  /^acme-storage-reporter$/, // the seeded machine app's client id
  /^[a-z0-9-]+(\.[a-z0-9-]+)+$/, // a domain name (team data)
  /^TXT$/, // the DNS record type to publish (a protocol word)
  /^_acct-challenge\.[a-z0-9.-]+$/, // the DNS record's name
  /^acct-verification=[0-9a-f]{32}$/, // the DNS record's value
  /^Acme Okta$/, // a connection's or directory's name (team data)
  /^Acme Entra ID$/, // a directory's name (team data)
  /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\/[\w./-]*$/, // a streaming endpoint's address without its scheme
  /^whsec_[A-Za-z0-9+/]+=*$/, // a streaming endpoint's signing secret
  /^Engineering$/, // a group the identity provider sent (its data)
  /^(email|NameID|firstName|lastName|givenName|familyName|groups)$/, // attribute names a connection reads
  /^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/, // an authenticator-app key, in groups of four (base32)
  /^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/, // a recovery code
  /^[A-Z]{4}-[A-Z]{4}$/, // a device's user code
  /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\b/, // dates (Intl)
  /^\d{1,2}:\d{2}\s?(AM|PM)$/,
  /^(this minute|yesterday|\d+ (minute|hour|day)s? ago)$/, // relative times (Intl.RelativeTimeFormat)
];

// Kept as source text: a compiled function would carry the TypeScript loader's helpers into the page.
const FIND_UNTRANSLATED = `({ marker, close, patterns, plain, intlTimes }) => {
  const data = patterns.map(([source, flags]) => new RegExp(source, flags));
  const found = [];
  const check = (text, where) => {
    // Bidi isolates and marks around a name or a number are layout, not text.
    const value = text.replace(/[\\u2066-\\u2069\\u200e\\u200f\\u061c]/g, '').trim();
    // A sentence with an element in it (the footer's link) is split into text nodes around the element:
    // the part after the element carries only the closing marker.
    if (value && !value.includes(marker) && !value.includes(close) && !data.some((pattern) => pattern.test(value))) found.push(where + ': "' + value + '"');
  };
  const walk = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) {
        if (!node.parentElement || !node.parentElement.closest(intlTimes ? 'style, script, textarea, time' : 'style, script, textarea')) check(node.textContent || '', node.parentElement ? node.parentElement.tagName : '?');
        continue;
      }
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        if (intlTimes && node.tagName === 'TIME' && name === 'title') continue;
        const value = node.getAttribute(name);
        if (value !== null) check(value, node.tagName + '[' + name + ']');
      }
      if (node.shadowRoot) walk(node.shadowRoot);
    }
  };
  // The server's plain pages have no elements: their whole document is theirs.
  if (plain) {
    check(document.title, 'title');
    walk(document.body);
  }
  for (const element of document.querySelectorAll('acct-portal, acct-header, acct-login, acct-manage, acct-token')) {
    if (element.shadowRoot) walk(element.shadowRoot);
  }
  return found;
}`;

/**
 * The texts on the page that carry no marker (`marks`, the pseudo-locale's shown) and are not data.
 * `intlTimes`: the text and title of each `<time>` are data too — dates and times Intl formats in a
 * language other than English.
 */
export async function untranslated(
  page: Page,
  {
    plain = false,
    intlTimes = false,
    marks = PSEUDO_MARKS,
  }: { plain?: boolean; intlTimes?: boolean; marks?: readonly [string, string] } = {},
): Promise<string[]> {
  const [marker, close] = marks;
  const args = {
    marker,
    close,
    patterns: DATA.map((pattern) => [pattern.source, pattern.flags]),
    plain,
    intlTimes,
  };
  return page.evaluate(`(${FIND_UNTRANSLATED})(${JSON.stringify(args)})`) as Promise<string[]>;
}

/** A pseudo-locale served as `language`'s chunks: English in its plural forms, in `marks`. */
export interface Pseudo {
  language: string;
  direction: 'ltr' | 'rtl';
  marks: readonly [string, string];
  texts: Texts;
  t: T;
}

export function pseudo(language: string, direction: 'ltr' | 'rtl', marks: readonly [string, string]): Pseudo {
  const texts = pseudoLocale(englishAs(language), marks);
  return { language, direction, marks, texts, t: translator(texts, language) };
}

/**
 * Serve `pseudo`'s texts for every chunk of its language in `context` — the main one and each text
 * part's, each with every text, as a part's texts are merged into the language's — from every origin the
 * bundle is served from.
 */
export async function servePseudo(context: BrowserContext, { language, texts }: Pseudo): Promise<void> {
  const body = `export default ${JSON.stringify(texts)};`;
  await context.route(
    new RegExp(`/dist/chunks/(?:(?:${TEXT_PARTS.join('|')})-)?${language}-[\\w-]+\\.js$`),
    (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body,
        headers: { 'access-control-allow-origin': '*' },
      }),
  );
}
