import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { spread, type Spread } from './harness';

declare global {
  interface Window {
    __passwordVisibleAt?: number;
  }
}

/**
 * Navigation → a visible password field, measured in the page: a requestAnimationFrame probe records
 * `performance.now()` (milliseconds since navigation start) at the first frame where the field has a
 * layout box, looking inside shadow roots.
 */
// Kept as source text: a compiled function could carry the TypeScript loader's helpers into the page.
const PROBE = `(() => {
  const find = () =>
    document.querySelector('input[type="password"]') ??
    document.querySelector('acct-login')?.shadowRoot?.querySelector('input[type="password"]') ??
    null;
  const tick = () => {
    const field = find();
    if (field && field.getClientRects().length > 0) window.__passwordVisibleAt = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

async function once(browser: Browser, url: string, throttle: number): Promise<{ ms: number; heap: number }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: PROBE });
    const cdp = await context.newCDPSession(page);
    if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__passwordVisibleAt !== undefined, null, { timeout: 60_000 });
    const ms = await page.evaluate(() => window.__passwordVisibleAt!);
    await cdp.send('HeapProfiler.collectGarbage').catch(() => undefined);
    const heap = await page.evaluate(
      () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0,
    );
    return { ms, heap };
  } finally {
    await context.close();
  }
}

export interface TimeResult {
  page: string;
  throttle: number;
  ms: Spread;
  heapBytes: number;
}

/** `runs` cold loads of each page (fresh browser context each), plain and CPU-throttled, interleaved. */
export async function timeToForm(
  pages: Record<string, string>,
  runs = 7,
  throttles = [1, 4],
): Promise<TimeResult[]> {
  const browser = await launchBrowser();
  const samples = new Map<string, { ms: number[]; heap: number[] }>();
  try {
    for (const throttle of throttles) {
      // One warm-up load per page so the first measured run does not pay for the browser's own start.
      for (const url of Object.values(pages)) await once(browser, url, throttle);
      for (let run = 0; run < runs; run++) {
        for (const [name, url] of Object.entries(pages)) {
          const key = `${name}|${throttle}`;
          const { ms, heap } = await once(browser, url, throttle);
          const entry = samples.get(key) ?? { ms: [], heap: [] };
          entry.ms.push(ms);
          entry.heap.push(heap);
          samples.set(key, entry);
        }
      }
    }
  } finally {
    await browser.close();
  }
  return [...samples.entries()].map(([key, entry]) => {
    const [page, throttle] = key.split('|') as [string, string];
    return { page, throttle: Number(throttle), ms: spread(entry.ms), heapBytes: spread(entry.heap).median };
  });
}
