import { fixed, heading, table } from '../output';
import { spread } from '../harness';
import { AB_RUNS, OTHER_DIST, TIME_ROUNDS } from '../settings';
import { timeToUsable, type BenchPage } from '../time-to-usable';

/**
 * The `ab` part: the sign-in page with this build and with another (`BENCH_AB_DIST`), and the floor,
 * interleaved in one run — the way to judge a change, since single runs on a busy machine move by more
 * than most changes do.
 */
export async function ab(all: Record<string, BenchPage>) {
  const a = all.login!;
  const b: BenchPage = {
    ...a,
    name: `the other build (${OTHER_DIST})`,
    url: `${a.url}?build=b`,
  };
  const results = await timeToUsable([a, b, all.loginFloor!], AB_RUNS, [1, 4], TIME_ROUNDS);
  heading(
    `A/B: time to the sign-in form, this build and another (${TIME_ROUNDS} rounds of ${AB_RUNS} cold loads each, interleaved)`,
  );
  // As in the time part: a ratio per round, then their median and range.
  const ratio = (x: { roundMedians: number[] }, y: { roundMedians: number[] }) =>
    spread(x.roundMedians.map((ms, round) => ms / y.roundMedians[round]!));
  const rows = [1, 4].map((throttle) => {
    const of = (page: BenchPage) => results.find((r) => r.page === page.name && r.throttle === throttle)!;
    const [mine, other, floor] = [of(a), of(b), of(all.loginFloor!)];
    return {
      throttle,
      thisBuild: mine.ms,
      otherBuild: other.ms,
      floor: floor.ms,
      thisRatio: ratio(mine, floor),
      otherRatio: ratio(other, floor),
      thisOther: ratio(mine, other),
    };
  });
  const range = (s: { median: number; min: number; max: number }) =>
    `${fixed(s.median, 2)} (${fixed(s.min, 2)}–${fixed(s.max, 2)})`;
  table(
    ['CPU', 'this build', 'other build', 'floor', 'this ÷ floor', 'other ÷ floor', 'this ÷ other'],
    rows.map((r) => [
      `${r.throttle}×`,
      `${fixed(r.thisBuild.median)} (${fixed(r.thisBuild.min)}–${fixed(r.thisBuild.max)})`,
      `${fixed(r.otherBuild.median)} (${fixed(r.otherBuild.min)}–${fixed(r.otherBuild.max)})`,
      fixed(r.floor.median),
      range(r.thisRatio),
      range(r.otherRatio),
      range(r.thisOther),
    ]),
  );
  return { otherDist: OTHER_DIST, runs: AB_RUNS, rounds: TIME_ROUNDS, rows };
}
