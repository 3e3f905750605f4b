/**
 * The `profile` part: what the ESM entry is made of, and the sign-in page's main-thread time by source
 * against its floor.
 */
import { join } from 'node:path';
import { launchBrowser } from '../../support/browser';
import { kb } from '../bytes';
import { pageServerFile } from '../harness';
import { fixed, heading, table } from '../output';
import { composition, cpuProfile } from '../profile';
import { FLOOR, ROOT, SETTINGS } from '../settings';
import type { BenchPage } from '../time-to-usable';

const PROFILE_THROTTLE = 4;

export async function profile(all: Record<string, BenchPage>) {
  const entry = await composition(join(ROOT, 'dist', 'acct-elements.js'));
  const entryTotal = entry.reduce((n, share) => n + share.bytes, 0);
  heading('What the ESM entry is made of (raw bytes by package or source file, from its source map)');
  table(
    ['source', 'raw', 'share'],
    entry.slice(0, 15).map((s) => [s.group, kb(s.bytes), `${fixed((s.bytes / entryTotal) * 100, 1)}%`]),
    [false, true, true],
  );

  const login = all.login!;
  const floor = all.loginFloor!;
  const browser = await launchBrowser();
  let costs: Awaited<ReturnType<typeof cpuProfile>>;
  try {
    costs = await cpuProfile(
      browser,
      [login, floor],
      (url) => pageServerFile(FLOOR, url),
      SETTINGS.runs,
      PROFILE_THROTTLE,
    );
  } finally {
    await browser.close();
  }
  const ours = costs.get(login.name) ?? [];
  const theirs = costs.get(floor.name) ?? [];
  const total = (list: typeof ours) => list.reduce((n, c) => n + c.ms, 0);
  const groups = new Set([...ours, ...theirs].map((c) => c.group));
  const rows = [...groups]
    .map((group) => {
      const a = ours.find((c) => c.group === group)?.ms ?? 0;
      const b = theirs.find((c) => c.group === group)?.ms ?? 0;
      return { group, login: a, floor: b, extra: a - b };
    })
    .sort((a, b) => b.extra - a.extra);
  heading(
    `Where the sign-in page's main-thread time goes (${PROFILE_THROTTLE}× CPU, sampled, ms per load, ${SETTINGS.runs} loads)`,
  );
  console.log(
    'Self time of each sample, summed by package or source file; (program) is the engine parsing,\n' +
      "compiling, styling, laying out and painting; 'native …' are browser APIs. Sampling slows the page,\n" +
      'so compare the two columns with each other, not with the time part.\n',
  );
  table(
    ['source', 'login only', 'login floor', 'extra'],
    [
      ...rows.slice(0, 20).map((r) => [r.group, fixed(r.login, 1), fixed(r.floor, 1), fixed(r.extra, 1)]),
      ['all', fixed(total(ours), 1), fixed(total(theirs), 1), fixed(total(ours) - total(theirs), 1)],
    ],
    [false, true, true, true],
  );
  return { entry, throttle: PROFILE_THROTTLE, runs: SETTINGS.runs, rows };
}
