/**
 * The bench's pages, and the `pages` part: the JavaScript each page fetches before it is usable, and the
 * sign-in page's bytes on the wire, cold and warm (Chromium).
 */
import { launchBrowser } from '../../support/browser';
import { kb } from '../bytes';
import { fixed, heading, table, verdict } from '../output';
import { pageBytes, type PageBytes } from '../page-bytes';
import type { BenchSession } from '../session';
import { BUDGETS } from '../settings';
import type { BenchPage } from '../time-to-usable';
import { wireBytes, type WireBytes, type WireRequest } from '../wire-bytes';

export function benchPages(
  pagesUrl: string,
  serverUrl: string,
  session: BenchSession,
): Record<string, BenchPage> {
  return {
    login: {
      name: 'login only: <acct-login team="acme">',
      url: `${pagesUrl}/login-only.html`,
      usable: 'password',
      floor: 'login floor',
      reference: 'minimal login floor',
    },
    // The same page for a visitor whose browser speaks Arabic: its language chunk, right to left.
    loginArabic: {
      name: 'login only, an Arabic-speaking visitor',
      url: `${pagesUrl}/login-only.html`,
      usable: 'password',
      locale: 'ar',
    },
    loginFloor: { name: 'login floor', url: `${pagesUrl}/floor.html`, usable: 'password' },
    loginMinimalFloor: {
      name: 'minimal login floor',
      url: `${pagesUrl}/minimal-floor.html`,
      usable: 'password',
    },
    header: {
      name: 'header only, signed in: <acct-header>',
      url: `${pagesUrl}/header-only.html`,
      usable: 'initials',
      session: session.token,
      floor: 'header floor',
    },
    headerFloor: {
      name: 'header floor',
      url: `${pagesUrl}/header-floor.html`,
      usable: 'initials',
      session: session.token,
    },
    portal: {
      name: 'full portal first paint, signed in: /manage',
      url: `${serverUrl}/manage`,
      usable: 'portal',
      session: session.token,
    },
  };
}

export async function pages(all: Record<string, BenchPage>) {
  const browser = await launchBrowser();
  const results: PageBytes[] = [];
  let wire: WireBytes;
  try {
    for (const page of Object.values(all)) results.push(await pageBytes(browser, page));
    wire = await wireBytes(browser, {
      ...all.login!,
      name: 'login only, the bundle from the identity server',
      url: `${all.login!.url}?bundle=issuer`,
    });
  } finally {
    await browser.close();
  }
  const floorOf = (page: PageBytes) =>
    results.find((r) => r.page === Object.values(all).find((p) => p.name === page.page)?.floor);
  heading('JavaScript fetched before the page is usable (loaded in Chromium, cold)');
  table(
    ['page', 'scripts', 'raw', 'gzip', 'brotli', 'gzip ÷ its floor', 'budget'],
    results.map((r) => {
      const floor = floorOf(r);
      const budget = [all.login!.name, all.loginArabic!.name].includes(r.page)
        ? `≤ ${kb(BUDGETS.loginPageGzip)} gzip: ${verdict(r.total.gzip <= BUDGETS.loginPageGzip)}`
        : '';
      return [
        r.page,
        r.scripts.map((s) => s.file.replace(/^.*\//, '')).join(', '),
        kb(r.total.raw),
        kb(r.total.gzip),
        kb(r.total.brotli),
        floor ? fixed(r.total.gzip / floor.total.gzip, 2) : '—',
        budget,
      ];
    }),
    [false, false, true, true, true, true, false],
  );
  printWire(wire);
  return { results, wire };
}

/** The sign-in page's requests, cold and warm, side by side (matched by address). */
function printWire(wire: WireBytes) {
  heading('Bytes on the wire: the sign-in page, the bundle from the identity server (Chromium)');
  console.log(
    'login-only.html with the bundle loaded from the identity server (as a partner page does), so what\n' +
      "travels is what the server sends: its compression and caching headers. Bytes are Chromium's\n" +
      "encodedDataLength: each answer's headers and body as received, until the password field shows\n" +
      'and the network has then been quiet for half a second. Cold: a fresh context. Warm: the page\n' +
      'opened again in a new tab of the same context. The page itself comes from the bench page server\n' +
      '(never cached).\n',
  );
  const answer = (r: WireRequest | undefined) =>
    !r
      ? '—'
      : r.status === 0
        ? 'from cache'
        : `${r.status} ${r.encoding === 'identity' ? '' : r.encoding}`.trim();
  const bytesOf = (r: WireRequest | undefined) => (r ? kb(r.wire) : '—');
  const paths = [...new Set([...wire.cold.requests, ...wire.warm.requests].map((r) => r.path))];
  const find = (list: WireRequest[], path: string) => list.find((r) => r.path === path);
  table(
    ['request', 'cold: answer', 'cold: bytes', 'decoded', 'warm: answer', 'warm: bytes'],
    [
      ...paths.map((path) => {
        const cold = find(wire.cold.requests, path);
        const warm = find(wire.warm.requests, path);
        return [path, answer(cold), bytesOf(cold), cold ? kb(cold.body) : '—', answer(warm), bytesOf(warm)];
      }),
      ['the bundle (/dist/…)', '', kb(wire.cold.bundle), '', '', kb(wire.warm.bundle)],
      [
        `all (${wire.cold.requests.length} / ${wire.warm.requests.length} requests)`,
        '',
        kb(wire.cold.total),
        '',
        '',
        kb(wire.warm.total),
      ],
    ],
    [false, false, true, true, false, true],
  );
}
