/** The tables on stdout: Markdown, one heading per table, marked when the run is a quick one. */
import type { LoadResult } from './server-load';
import { QUICK } from './settings';

export function table(
  headers: string[],
  rows: Array<Array<string | number>>,
  right = headers.map((_, i) => i > 0),
) {
  console.log(`| ${headers.join(' | ')} |`);
  console.log(`|${right.map((r) => (r ? '---:' : '---')).join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

export const heading = (text: string) => console.log(`\n## ${text}${QUICK ? ' — QUICK RUN, noisy' : ''}\n`);
export const fixed = (value: number, digits = 0) => value.toFixed(digits);
export const verdict = (ok: boolean) => (ok ? 'within' : 'OVER');

/** The columns of a load window's answers (`LoadResult`): latency, then answers by kind. */
export const LOAD_COLUMNS = ['p50 ms', 'p99 ms', '2xx', 'non-2xx', '5xx', 'errors'];
/** Those columns' cells for one load window. */
export const loadCells = (r: LoadResult) => [
  fixed(r.p50, 1),
  fixed(r.p99, 1),
  r.ok,
  r.non2xx,
  r.serverErrors,
  r.errors,
];
