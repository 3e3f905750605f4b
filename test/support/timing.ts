/**
 * Where a slow end-to-end file spends its time, when E2E_TIMING=1: each `timed` step adds its wall time
 * to its phase (and, per item, to the item), and the totals are printed when the process exits. Off,
 * `timed` only runs the step. For measuring, not for asserting: figures depend on the machine's load.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';

const ON = process.env.E2E_TIMING === '1';
const phases = new Map<string, { ms: number; count: number }>();
const items = new Map<string, number>();

export async function timed<T>(phase: string, item: string, step: () => Promise<T>): Promise<T> {
  if (!ON) return step();
  const start = performance.now();
  try {
    return await step();
  } finally {
    const ms = performance.now() - start;
    const total = phases.get(phase) ?? { ms: 0, count: 0 };
    phases.set(phase, { ms: total.ms + ms, count: total.count + 1 });
    items.set(item, (items.get(item) ?? 0) + ms);
  }
}

if (ON)
  process.on('exit', () => {
    const lines = [...phases].sort((a, b) => b[1].ms - a[1].ms);
    const slowest = [...items].sort((a, b) => b[1] - a[1]).slice(0, 15);
    const dir = join(import.meta.dirname, '..', '..', 'test-results', 'timing');
    mkdirSync(dir, { recursive: true });
    appendFileSync(
      join(dir, `${basename(process.argv[1] ?? 'unknown')}.txt`),
      [
        new Date().toISOString(),
        'E2E_TIMING phases (total s, count, mean ms):',
        ...lines.map(
          ([name, { ms, count }]) =>
            `  ${name}: ${(ms / 1000).toFixed(1)} s, ${count}, ${(ms / count).toFixed(0)} ms`,
        ),
        'E2E_TIMING slowest items (s):',
        ...slowest.map(([name, ms]) => `  ${name}: ${(ms / 1000).toFixed(1)}`),
        '',
      ].join('\n'),
    );
  });
