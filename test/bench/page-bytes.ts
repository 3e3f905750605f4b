import type { Browser, Request } from 'playwright-core';
import { compress, sum, type Size } from './bytes';
import { usableProbe } from './probes';
import { pageContext, type BenchPage } from './time-to-usable';

export interface PageBytes {
  page: string;
  /** The scripts requested before the page was usable, each with its sizes. */
  scripts: Size[];
  total: Size;
}

/**
 * The JavaScript a page fetches before it is usable, measured for real: the page is loaded in Chromium
 * (a fresh context, no cache) and every script requested until the usable condition holds is summed,
 * including the chunks in flight at that moment. The bodies are what the server sent uncompressed; gzip
 * and brotli are recomputed from them at the highest levels, so the figures do not depend on whether a
 * server compresses.
 */
export async function pageBytes(browser: Browser, bench: BenchPage): Promise<PageBytes> {
  const context = await pageContext(browser, bench);
  try {
    const page = await context.newPage();
    const requested: Request[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') requested.push(request);
    });
    // An init script, not a string predicate: the portal's CSP forbids evaluating strings.
    await page.addInitScript({ content: usableProbe(bench.usable) });
    await page.goto(bench.url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__usableAt !== undefined, null, { timeout: 60_000 });
    const before = [...requested];
    const scripts: Size[] = [];
    for (const request of before) {
      const response = await request.response();
      if (!response) throw new Error(`no answer for ${request.url()}`);
      scripts.push(compress(new URL(request.url()).pathname, await response.body()));
    }
    return { page: bench.name, scripts, total: sum(scripts, bench.name) };
  } finally {
    await context.close();
  }
}
