/** The `growth` part: the server's figures with 10, 1,000 and 100,000 users, compared round by round. */
import {
  HASH_CONCURRENCY,
  hashBound,
  medianBy,
  spread,
  startServerProcess,
  type ServerProcess,
} from '../harness';
import { fixed, heading, table, verdict } from '../output';
import { growDatabase, type GrowthSeed } from '../seed';
import { inRounds, load, medianRound, type LoadResult } from '../server-load';
import { signIn } from '../session';
import { BUDGETS, GROWTH_SESSIONS, GROWTH_USERS, ROUTE_CONNECTIONS, SETTINGS } from '../settings';
import { loginFigures, type LoginFigures } from './login';
import { targets } from './server';

interface GrowthRun {
  users: number;
  seed: GrowthSeed;
  /** Each route's median round. */
  routes: LoadResult[];
  /** The median round of sign-in. */
  login: LoginFigures;
}

/**
 * One figure at each size, one value per round (`rounds[size][round]`). Its change is the median over
 * rounds of that round's change from the smallest size to the largest: the two were measured seconds
 * apart, so a swing of the machine between rounds (often larger than 20% here) cancels out of each
 * round's ratio, where it would not between two medians.
 */
interface GrowthFigure {
  name: string;
  rounds: number[][];
  higherIsBetter: boolean;
}

function assessGrowth(figure: GrowthFigure) {
  const first = figure.rounds[0]!;
  const last = figure.rounds.at(-1)!;
  const roundChanges = first.map((value, round) => (last[round]! - value) / value);
  const change = spread(roundChanges).median;
  // p99 is read in whole milliseconds: a rise of under 1 ms is below what it can show.
  const rise = spread(first.map((value, round) => last[round]! - value)).median;
  const degraded = figure.higherIsBetter
    ? change < -BUDGETS.growthDegradation
    : change > BUDGETS.growthDegradation && rise >= 1;
  return {
    name: figure.name,
    higherIsBetter: figure.higherIsBetter,
    values: figure.rounds.map((values) => spread(values).median),
    rounds: figure.rounds,
    roundChanges,
    change,
    within: !degraded,
  };
}

export async function growth() {
  const bound = await hashBound(SETTINGS.boundSeconds);
  // All sizes up at once, each its own process on its own grown copy of the database. Each round
  // measures one route on every size back to back, then the next route, so the sizes a figure compares
  // are measured seconds apart (GrowthFigure).
  const seeds = new Map<number, GrowthSeed>();
  const servers: Array<ServerProcess & { users: number }> = [];
  let routeRounds: LoadResult[][][];
  let loginRounds: LoginFigures[][];
  try {
    for (const users of GROWTH_USERS) {
      const server = await startServerProcess({ LOGIN_ADDRESS_LIMIT: '1000000' }, (file) => {
        seeds.set(users, growDatabase(file, users, GROWTH_SESSIONS));
      });
      servers.push({ ...server, users });
    }
    const sessions = await Promise.all(servers.map((server) => signIn(server.url)));
    const routeTargets = sessions.map((session) => targets(session));
    const routeCount = routeTargets[0]!.length;
    // Route-major: route r on size i is measurement r × sizes + i.
    const samples = await inRounds(routeCount * servers.length, SETTINGS.growthRounds, (k) => {
      const size = k % servers.length;
      const target = routeTargets[size]![Math.floor(k / servers.length)]!;
      return load(servers[size]!.url, target, SETTINGS.growthSeconds, ROUTE_CONNECTIONS, SETTINGS.warmup);
    });
    routeRounds = servers.map((_, size) =>
      routeTargets[size]!.map((_, route) => samples[route * servers.length + size]!),
    );
    // As many sign-ins at once as the server hashes at once: with more, each sign-in's latency is
    // mostly its wait in the hash queue, and the p99 of a queue measures scheduling, not data size.
    loginRounds = await inRounds(servers.length, SETTINGS.growthLoginRounds, (size) =>
      loginFigures(servers[size]!, SETTINGS.growthLoginSeconds, bound, HASH_CONCURRENCY),
    );
  } finally {
    for (const server of servers) await server.stop();
  }
  const runs: GrowthRun[] = servers.map((server, size) => ({
    users: server.users,
    seed: seeds.get(server.users)!,
    routes: routeRounds[size]!.map(medianRound),
    login: medianBy(loginRounds[size]!, (l) => l.loginsPerSecond),
  }));
  const figures: GrowthFigure[] = [];
  for (const [route, target] of runs[0]!.routes.entries()) {
    figures.push({
      name: `${target.name} req/s`,
      rounds: routeRounds.map((size) => size[route]!.map((r) => r.requestsPerSecond)),
      higherIsBetter: true,
    });
    figures.push({
      name: `${target.name} p99 ms`,
      rounds: routeRounds.map((size) => size[route]!.map((r) => r.p99)),
      higherIsBetter: false,
    });
  }
  figures.push({
    name: 'POST /account/login logins/s',
    rounds: loginRounds.map((size) => size.map((l) => l.loginsPerSecond)),
    higherIsBetter: true,
  });
  figures.push({
    name: 'POST /account/login p99 ms',
    rounds: loginRounds.map((size) => size.map((l) => l.load.p99)),
    higherIsBetter: false,
  });
  const assessed = figures.map(assessGrowth);
  const errors = servers.map(
    (_, size) =>
      routeRounds[size]!.flat().reduce((n, x) => n + x.errors + x.non2xx, 0) +
      loginRounds[size]!.reduce((n, l) => n + l.load.serverErrors + l.load.errors, 0),
  );
  heading(
    `Growth: ${GROWTH_USERS.map((n) => n.toLocaleString('en')).join(' / ')} users, ${GROWTH_SESSIONS.toLocaleString('en')} live sessions`,
  );
  console.log(
    `Each size: a fresh copy of the seeded database grown in one transaction (${runs
      .map((r) => `${r.seed.users.toLocaleString('en')} users in ${r.seed.ms} ms`)
      .join(', ')}), then a server process each, all running at once.\n` +
      `${SETTINGS.growthRounds} rounds of ${SETTINGS.growthSeconds} s per route and size (a route on every size back to back), then ` +
      `${SETTINGS.growthLoginRounds} rounds of ${SETTINGS.growthLoginSeconds} s of sign-in per size, ${HASH_CONCURRENCY} at once (the hash slots: no queue);\n` +
      `the sizes in turn forward and backward. Each size's figure is its median round; the change is the median of each round's\n` +
      `change from ${GROWTH_USERS[0]!.toLocaleString('en')} to ${GROWTH_USERS.at(-1)!.toLocaleString('en')} users (per round in brackets).\n`,
  );
  const percent = (change: number) => `${change >= 0 ? '+' : ''}${fixed(change * 100)}%`;
  table(
    ['figure', ...GROWTH_USERS.map((n) => `${n.toLocaleString('en')} users`), 'change (per round)', 'budget'],
    [
      ...assessed.map((f) => [
        f.name,
        ...f.values.map((v) => fixed(v, 1)),
        `${percent(f.change)} (${f.roundChanges.map(percent).join(', ')})`,
        `${f.higherIsBetter ? 'drop' : 'rise'} ≤ 20%: ${verdict(f.within)}`,
      ]),
      ['errors, non-2xx and 5xx', ...errors.map(String), '', ''],
    ],
  );
  return { bound, runs, figures: assessed, errors };
}
