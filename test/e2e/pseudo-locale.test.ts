/**
 * The pseudo-locale run: the English chunk is swapped for an accented, 40% longer version of
 * itself with every text wrapped in ⟦ ⟧, and every screen is walked. Any text on screen — a text node,
 * or an aria-label, placeholder, title or alt — without the marker did not come from the locale files:
 * an untranslated string. Data (names, e-mails, dates, codes, brand and policy names) is allowed;
 * policy descriptions are translated on the client by policy name, so they must carry the marker too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, sweepTab, useE2E } from '../support/browser';
import { TEXTS } from '../../demo/server/mail/texts';
import { LANGUAGE_NAMES } from '../../src/i18n/language-names';
import { visitProviderPages } from '../support/provider-pages-sweep';
import { expectedErrors, holdTransient, SHOTS, SHOTS_ENV, transientGone } from '../support/screens';
import { timed } from '../support/timing';
import { showLanguage } from '../support/screens-sweep';
import {
  englishAs,
  PSEUDO_MARKS,
  PSEUDO_MARKS_OTHER,
  pseudoLocale,
  readLocale,
  translator,
  type T,
  type Texts,
} from '../support/texts';

/**
 * The walk's two languages: the pseudo-locale as English's chunks, and (right to left) as Arabic's —
 * English in Arabic's plural forms, in marks of its own, so that a text still in English's marks after
 * the switch shows as one that did not follow it.
 */
const PSEUDO: Record<'en' | 'ar', { texts: Texts; t: T; marks: readonly [string, string] }> = {
  en: {
    texts: pseudoLocale(readLocale('en')),
    t: translator(pseudoLocale(readLocale('en'))),
    marks: PSEUDO_MARKS,
  },
  ar: {
    texts: pseudoLocale(englishAs('ar'), PSEUDO_MARKS_OTHER),
    t: translator(pseudoLocale(englishAs('ar'), PSEUDO_MARKS_OTHER), 'ar'),
    marks: PSEUDO_MARKS_OTHER,
  },
};

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
async function untranslated(
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

const ENV = SHOTS_ENV;
const e2e = useE2E(ENV);

/**
 * Walk every screen with English's and Arabic's chunks (their main ones and their text parts) swapped for
 * the pseudo-locale, the browser speaking English: each state brought about in English, its texts checked
 * for the marker; then the same state switched to Arabic where it stands (the elements' `lang`), every
 * element mirrored and every text — the messages already on screen too — in Arabic's marks.
 */
async function sweepPseudo(): Promise<string[]> {
  const found: string[] = [];
  const context = await e2e.browser.newContext({ locale: 'en-US' });
  try {
    // Every origin the bundle is served from: each chunk gets every text, as a part's texts are merged
    // into the language's.
    for (const language of ['en', 'ar'] as const)
      await context.route(
        new RegExp(
          `/dist/chunks/(?:manage-|join-|admin-|invite-|account-|security-)?${language}-[\\w-]+\\.js$`,
        ),
        (route) =>
          route.fulfill({
            contentType: 'text/javascript',
            body: `export default ${JSON.stringify(PSEUDO[language].texts)};`,
            headers: { 'access-control-allow-origin': '*' },
          }),
      );
    const tab = await sweepTab(context);
    for (const shot of SHOTS) {
      const n = shot.name;
      const watch = await timed('tab.next', n, () => tab.next(expectedErrors(shot)));
      await timed('shot.show', n, () => shot.show(watch.page, e2e.server, PSEUDO.en.t));
      await timed('hold', n, () => holdTransient(shot, watch.page, PSEUDO.en.t));
      await timed('screenshot', n, () => screenshot(watch.page, 'pseudo-locale', n));
      for (const text of await timed('untranslated', n, () => untranslated(watch.page)))
        found.push(`${n}: ${text}`);
      if (await transientGone(shot, watch.page, PSEUDO.en.t))
        found.push(`${n}: the state was gone before the walk finished`);

      await timed('showLanguage', n, () => showLanguage(watch.page, 'ar', 'rtl'));
      await timed('screenshot', n, () => screenshot(watch.page, 'pseudo-locale-ar', n));
      const { marks } = PSEUDO.ar;
      for (const text of await timed('untranslated', n, () =>
        untranslated(watch.page, { intlTimes: true, marks }),
      ))
        found.push(`${n} (ar): ${text}`);
      if (await transientGone(shot, watch.page, PSEUDO.ar.t))
        found.push(`${n} (ar): the state was gone before the walk finished`);
      assert.deepEqual(await watch.problems(), [], n);
    }
  } finally {
    await context.close();
  }
  return found;
}

describe('pseudo-locale', () => {
  it('shows no text that bypasses the locale files, on any screen, left to right and right to left', async () => {
    assert.deepEqual(await sweepPseudo(), []);
  });
});

/**
 * Every string of `target` replaced, in place, by the one at the same place in `source`; returns what
 * puts the old ones back. The server's i18next reads its texts from these objects.
 */
function replaceTexts(target: Record<string, unknown>, source: Record<string, unknown>): () => void {
  const restores: Array<() => void> = [];
  for (const [key, value] of Object.entries(source)) {
    const old = target[key];
    if (typeof value === 'string') {
      target[key] = value;
      restores.push(() => (target[key] = old));
    } else restores.push(replaceTexts(old as Record<string, unknown>, value as Record<string, unknown>));
  }
  return () => restores.forEach((restore) => restore());
}

describe('pseudo-locale, the OpenID Provider’s own pages', () => {
  it('shows no text that bypasses the server’s texts, on any of its pages', async () => {
    // The test server runs in this process: its English texts become the pseudo-locale's for a while.
    const english = TEXTS.en as unknown as Record<string, unknown>;
    const restore = replaceTexts(english, pseudoLocale(structuredClone(english)));
    const found: string[] = [];
    try {
      await visitProviderPages(e2e, async (name, page) => {
        await screenshot(page, 'pseudo-locale', name);
        for (const text of await untranslated(page, { plain: true })) found.push(`${name}: ${text}`);
      });
    } finally {
      restore();
    }
    assert.deepEqual(found, []);
  });
});
