/**
 * What every part of the bench shares: where it reads and writes, how long it measures (`BENCH_QUICK`),
 * and the budgets of design.md §5.
 */
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const OUT = join(ROOT, 'test-results', 'bench');
export const DIST = join(ROOT, 'dist');
export const FLOOR = join(OUT, 'floor');
export const REPORT = join(OUT, 'report.json');
/** The `ab` part: another build's `dist/` folder, loaded side by side with this one. */
export const OTHER_DIST = process.env.BENCH_AB_DIST ? resolve(process.env.BENCH_AB_DIST) : undefined;

export const QUICK = process.env.BENCH_QUICK === '1' || process.argv.includes('--quick');
/** Cold loads per page in the `ab` part: more than `time`, since it is read for differences of a few %. */
export const AB_RUNS = QUICK ? 2 : 11;
/** The `time` part: rounds of cold loads per page; its ratios are the median of the rounds' ratios. */
export const TIME_ROUNDS = QUICK ? 1 : 3;
export const TIME_LOADS = QUICK ? 2 : 11;
/** Windows and repetitions; the quick ones are for developing the bench, not for reading figures. */
export const SETTINGS = QUICK
  ? {
      runs: 2,
      rounds: 1,
      routeSeconds: 2,
      warmup: 0.5,
      boundSeconds: 2,
      loginSeconds: 4,
      loginWarmup: 1,
      growthRounds: 1,
      growthSeconds: 2,
      growthLoginRounds: 1,
      growthLoginSeconds: 3,
    }
  : {
      runs: 7,
      rounds: 5,
      routeSeconds: 2,
      warmup: 1,
      boundSeconds: 5,
      loginSeconds: 10,
      loginWarmup: 2,
      growthRounds: 5,
      growthSeconds: 2,
      growthLoginRounds: 3,
      growthLoginSeconds: 8,
    };
/** Connections for the cheap routes (autocannon's default) and for sign-in (enough to keep every hash slot busy). */
export const ROUTE_CONNECTIONS = 10;
export const LOGIN_CONNECTIONS = Math.max(8, 2 * availableParallelism());
export const GROWTH_USERS = [10, 1_000, 100_000];
export const GROWTH_SESSIONS = 10_000;
/** The team the `members` part measures the admin lists in. */
export const MEMBERS = 100_000;

/** design.md §5. */
export const BUDGETS = {
  loginPageGzip: 105 * 1024,
  everythingGzip: 170 * 1024,
  timeRatio: 1.2,
  userinfoRatio: 0.5,
  loginRatio: 0.8,
  growthDegradation: 0.2,
  /** Admin lists (member list and search) at 100,000 members: p99 in ms. */
  adminListP99: 50,
  /** The team event a sign-in writes, as a share of what the sign-in costs: events add at most 5 %. */
  eventShareOfSignIn: 0.05,
};
