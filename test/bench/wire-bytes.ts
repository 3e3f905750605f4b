import type { Browser, BrowserContext } from 'playwright-core';
import { usableProbe } from './probes';
import { pageContext, type BenchPage } from './time-to-usable';

/** How long the network must be idle, once the page is usable, for a load to count as done. */
const QUIET_MS = 500;

/** One request of a page load, as Chromium's network stack saw it. */
export interface WireRequest {
  /** The address without its origin (`/dist/acct-elements.js`). */
  path: string;
  /** The origin that answered. */
  origin: string;
  /** CDP's resource type (Document, Script, Fetch, …). */
  type: string;
  /** The status, or 0 when the answer came from the browser's cache without asking. */
  status: number;
  /** `Content-Encoding` of the answer (`br`, `gzip`), `identity` without one, `cache` when not asked. */
  encoding: string;
  /** Bytes received for it: headers and body as sent (compressed), 0 from the cache. */
  wire: number;
  /** The body's bytes after decoding. */
  body: number;
}

export interface WireLoad {
  requests: WireRequest[];
  /** Bytes received, everything and the bundle's files (`/dist/…`) alone. */
  total: number;
  bundle: number;
}

export interface WireBytes {
  page: string;
  /** First visit: a fresh browser context, nothing cached. */
  cold: WireLoad;
  /** The same page opened again in the same context: what the cache saves. */
  warm: WireLoad;
}

/**
 * One load of a page in a tab of `context`, until it is usable and the network has then been quiet for
 * `QUIET_MS`; what Chromium received for each request, from the DevTools protocol (`encodedDataLength`:
 * the answer's headers and body as they came over the socket).
 */
async function load(context: BrowserContext, bench: BenchPage): Promise<WireLoad> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    const requests = new Map<string, WireRequest>();
    const finished = new Set<string>();
    const cached = new Set<string>();
    // The status as it came over the wire: a revalidated answer is a 304 there, where responseReceived
    // gives the cached 200 it confirmed.
    const wireStatus = new Map<string, number>();
    let lastActivity = Date.now();
    cdp.on('Network.requestWillBeSent', (event) => {
      lastActivity = Date.now();
      const url = new URL(event.request.url);
      requests.set(event.requestId, {
        path: url.pathname + url.search,
        origin: url.origin,
        type: event.type ?? 'Other',
        status: 0,
        encoding: 'cache',
        wire: 0,
        body: 0,
      });
    });
    cdp.on('Network.requestServedFromCache', (event) => cached.add(event.requestId));
    cdp.on('Network.responseReceivedExtraInfo', (event) => wireStatus.set(event.requestId, event.statusCode));
    cdp.on('Network.responseReceived', (event) => {
      const request = requests.get(event.requestId);
      if (!request) return;
      const fromCache =
        cached.has(event.requestId) || event.response.fromDiskCache || event.response.fromPrefetchCache;
      const header = Object.entries(event.response.headers).find(
        ([name]) => name.toLowerCase() === 'content-encoding',
      );
      request.status = fromCache ? 0 : event.response.status;
      request.encoding = fromCache ? 'cache' : String(header?.[1] ?? 'identity');
    });
    cdp.on('Network.dataReceived', (event) => {
      const request = requests.get(event.requestId);
      if (request) request.body += event.dataLength;
    });
    cdp.on('Network.loadingFinished', (event) => {
      const request = requests.get(event.requestId);
      if (request && request.status !== 0) request.wire = event.encodedDataLength;
      finished.add(event.requestId);
      lastActivity = Date.now();
    });
    cdp.on('Network.loadingFailed', (event) => {
      finished.add(event.requestId);
      lastActivity = Date.now();
    });
    await cdp.send('Network.enable');
    await page.addInitScript({ content: usableProbe(bench.usable) });
    await page.goto(bench.url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__usableAt !== undefined, null, { timeout: 60_000 });
    // Then until the network is quiet, so a request that may start just before or just after the form
    // shows (the discovery document) is counted in every load.
    const deadline = Date.now() + 30_000;
    while (requests.size > finished.size || Date.now() - lastActivity < QUIET_MS) {
      if (Date.now() > deadline) throw new Error(`${bench.name}: the network is still busy after 30 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const list = [...requests.keys()].map((id) => {
      const request = requests.get(id)!;
      return request.status === 0 ? request : { ...request, status: wireStatus.get(id) ?? request.status };
    });
    const sum = (items: WireRequest[]) => items.reduce((n, r) => n + r.wire, 0);
    return {
      requests: list,
      total: sum(list),
      bundle: sum(list.filter((r) => r.path.startsWith('/dist/'))),
    };
  } finally {
    await page.close();
  }
}

/**
 * Bytes on the wire for a page, measured in Chromium: a first visit in a fresh context (cold cache),
 * then the page opened again in a new tab of the same context (warm cache: what the server's caching
 * headers let the browser keep, or revalidate with a 304).
 */
export async function wireBytes(browser: Browser, bench: BenchPage): Promise<WireBytes> {
  const context = await pageContext(browser, bench);
  try {
    const cold = await load(context, bench);
    const warm = await load(context, bench);
    return { page: bench.name, cold, warm };
  } finally {
    await context.close();
  }
}
