import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchBrowser, signInContext } from '../support/browser';
import { spread, type Spread } from './harness';
import { usableProbe, type Usable } from './probes';

export interface BenchPage {
  name: string;
  url: string;
  /** What makes the page usable (see probes.ts). */
  usable: Usable;
  /** The session cookie to put in the browser context first, for pages that show the signed-in user. */
  session?: string;
  /** The floor page this one is compared with (by name); none for the floors themselves. */
  floor?: string;
  /** Another floor it is also compared with, for reference only (no budget reads it). */
  reference?: string;
  /** The visitor's browser language, where not the browser's default (English). */
  locale?: string;
}

/** A fresh browser context: no cache, no cookies, except the page's own session cookie. */
export async function pageContext(browser: Browser, page: BenchPage): Promise<BrowserContext> {
  const context = await browser.newContext(page.locale ? { locale: page.locale } : {});
  if (page.session) await signInContext(context, page.session);
  return context;
}

/**
 * One cold load of a bench page, CPU throttled, until it is usable. `before` runs with the page's
 * DevTools session ahead of the navigation; `after` reads what the caller came for, before the context
 * closes.
 */
export async function coldLoad<T>(
  browser: Browser,
  bench: BenchPage,
  throttle: number,
  after: (page: Page, cdp: CDPSession) => Promise<T>,
  before?: (cdp: CDPSession) => Promise<void>,
): Promise<T> {
  const context = await pageContext(browser, bench);
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: usableProbe(bench.usable) });
    const cdp = await context.newCDPSession(page);
    if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    await before?.(cdp);
    await page.goto(bench.url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__usableAt !== undefined, null, { timeout: 60_000 });
    return await after(page, cdp);
  } finally {
    await context.close();
  }
}

function once(browser: Browser, bench: BenchPage, throttle: number): Promise<{ ms: number; heap: number }> {
  return coldLoad(browser, bench, throttle, async (page, cdp) => {
    const ms = await page.evaluate(() => window.__usableAt!);
    // The heap the page keeps once usable: after a full collection, so garbage does not count.
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return { ms, heap: usedSize };
  });
}

export interface TimeResult {
  page: string;
  floor: string | null;
  reference: string | null;
  throttle: number;
  /** Every load of every round. */
  ms: Spread;
  /** Each round's median, in the order the rounds ran. */
  roundMedians: number[];
  /** Median JS heap after load (bytes, after garbage collection). */
  heapBytes: number;
  runs: number;
}

/**
 * Navigation → usable: `rounds` rounds of `loads` cold loads of each page (a fresh browser context each),
 * plain and with the CPU throttled. Within a round the pages are interleaved, in turn forward and backward,
 * so that drift in the machine's speed touches all of them alike and no page always follows the same one:
 * a load measured right after another page's runs a few percent slower or faster depending on that page.
 */
export async function timeToUsable(
  pages: BenchPage[],
  loads = 7,
  throttles = [1, 4],
  rounds = 1,
): Promise<TimeResult[]> {
  const browser = await launchBrowser();
  const samples = new Map<string, { ms: number[][]; heap: number[] }>();
  try {
    for (const throttle of throttles) {
      // One warm-up load per page so the first measured run does not pay for the browser's own start.
      for (const page of pages) await once(browser, page, throttle);
      for (let round = 0; round < rounds; round++) {
        for (let load = 0; load < loads; load++) {
          for (const page of load % 2 ? [...pages].reverse() : pages) {
            const key = `${page.name}|${throttle}`;
            const { ms, heap } = await once(browser, page, throttle);
            const entry = samples.get(key) ?? { ms: [], heap: [] };
            (entry.ms[round] ??= []).push(ms);
            entry.heap.push(heap);
            samples.set(key, entry);
          }
        }
      }
    }
  } finally {
    await browser.close();
  }
  return [...samples.entries()].map(([key, entry]) => {
    const [name, throttle] = key.split('|') as [string, string];
    const page = pages.find((p) => p.name === name);
    const all = entry.ms.flat();
    return {
      page: name,
      floor: page?.floor ?? null,
      reference: page?.reference ?? null,
      throttle: Number(throttle),
      ms: spread(all),
      roundMedians: entry.ms.map((round) => spread(round).median),
      heapBytes: spread(entry.heap).median,
      runs: all.length,
    };
  });
}
