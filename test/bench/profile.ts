/**
 * What costs the bytes and the time, by source: the bench's answer when a budget is over.
 * `composition` splits a built file's bytes by package or source file through its source map;
 * `cpuProfile` samples the main thread of cold page loads with the DevTools profiler and sums the
 * self time of every sample by the same groups, so the sign-in page and its floor can be compared line
 * by line.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { SourceMapConsumer, type RawSourceMap } from 'source-map';
import { coldLoad, type BenchPage } from './time-to-usable';

/** A source path of a map → its group: the npm package, or our file under `src/`. */
export function groupOf(source: string | null): string {
  if (!source) return '(unmapped)';
  const modules = source.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = source.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const src = source.indexOf('src/');
  return src >= 0 ? source.slice(src) : source.replace(/^(\.\.\/)+/, '');
}

async function consumer(file: string): Promise<SourceMapConsumer | null> {
  const mapFile = `${file}.map`;
  if (!existsSync(mapFile)) return null;
  return new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8')) as RawSourceMap);
}

export interface Share {
  group: string;
  bytes: number;
}

/** A built file's raw bytes by group (each mapped segment up to the next one counts for its source). */
export async function composition(file: string): Promise<Share[]> {
  const map = await consumer(file);
  if (!map) return [];
  const lines = readFileSync(file, 'utf8').split('\n');
  const segments: Array<{ line: number; column: number; group: string }> = [];
  map.eachMapping((m) =>
    segments.push({ line: m.generatedLine, column: m.generatedColumn, group: groupOf(m.source) }),
  );
  map.destroy();
  segments.sort((a, b) => a.line - b.line || a.column - b.column);
  const bytes = new Map<string, number>();
  segments.forEach((segment, i) => {
    const next = segments[i + 1];
    const end = next?.line === segment.line ? next.column : (lines[segment.line - 1]?.length ?? 0);
    bytes.set(segment.group, (bytes.get(segment.group) ?? 0) + end - segment.column);
  });
  return [...bytes.entries()].map(([group, n]) => ({ group, bytes: n })).sort((a, b) => b.bytes - a.bytes);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Cost {
  group: string;
  /** Self time per load, milliseconds (sampling inflates it: compare pages, not with the time part). */
  ms: number;
}

/**
 * Main-thread self time by group, averaged over `runs` cold loads of each page (after one warm-up),
 * CPU throttled. Script frames are mapped through the source map of the file the script's URL is
 * served from (`files(url)`); the engine's own work keeps its profiler name — `(program)` is parsing,
 * compiling, style, layout and paint; other native frames are the browser's APIs (`fetch`, storage…).
 */
export async function cpuProfile(
  browser: Browser,
  pages: BenchPage[],
  files: (url: string) => string | null,
  runs: number,
  throttle: number,
): Promise<Map<string, Cost[]>> {
  const totals = new Map<string, Map<string, number>>();
  const maps = new Map<string, SourceMapConsumer | null>();
  try {
    for (let run = 0; run <= runs; run++) {
      for (const bench of pages) {
        const profile = await coldLoad(
          browser,
          bench,
          throttle,
          async (_page, cdp) => ((await cdp.send('Profiler.stop')) as { profile: Profile }).profile,
          async (cdp) => {
            await cdp.send('Profiler.enable');
            await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
            await cdp.send('Profiler.start');
          },
        );
        if (run === 0) continue;
        const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
        const sums = totals.get(bench.name) ?? new Map<string, number>();
        totals.set(bench.name, sums);
        for (let i = 0; i < profile.samples.length; i++) {
          const frame = byId.get(profile.samples[i]!);
          if (!frame) continue;
          let group: string;
          const file = frame.url ? files(frame.url) : null;
          if (file && !maps.has(file)) maps.set(file, await consumer(file));
          // Only our bundle and the floor have source maps; other scripts are the probe and the driver.
          const map = file ? maps.get(file) : null;
          if (map && !frame.functionName && frame.lineNumber === 0 && frame.columnNumber === 0) {
            // A module's own top-level code: its first position maps to whatever source rollup put first.
            group = `top level of ${frame.url.slice(frame.url.lastIndexOf('/') + 1)}`;
          } else if (map) {
            const position = map.originalPositionFor({
              line: frame.lineNumber + 1,
              column: frame.columnNumber,
            });
            group = groupOf(position.source);
          } else if (frame.url) group = '(other scripts: the probe, the test driver)';
          else if (frame.functionName.startsWith('(')) group = frame.functionName;
          else group = `native ${frame.functionName || '(anonymous)'}`;
          const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000 / runs;
          sums.set(group, (sums.get(group) ?? 0) + ms);
        }
      }
    }
  } finally {
    for (const map of maps.values()) map?.destroy();
  }
  return new Map(
    [...totals.entries()].map(([page, sums]) => [
      page,
      [...sums.entries()].map(([group, ms]) => ({ group, ms })).sort((a, b) => b.ms - a.ms),
    ]),
  );
}
