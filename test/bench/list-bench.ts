/**
 * What the `members` and `scim` parts share: admin list calls under load against one server, each a
 * median round of autocannon, reported against the admin lists' budget (design §5).
 */
import { spread } from './harness';
import { LOAD_COLUMNS, fixed, heading, table, verdict } from './output';
import { inRounds, load, medianRound, type Target } from './server-load';
import { BUDGETS, ROUTE_CONNECTIONS, SETTINGS } from './settings';

/** Load every target in rounds; the p99 of each is the median of its rounds'. */
export async function loadLists(url: string, targets: Target[]) {
  const rounds = await inRounds(targets.length, SETTINGS.rounds, (index) =>
    load(url, targets[index]!, SETTINGS.routeSeconds, ROUTE_CONNECTIONS, SETTINGS.warmup),
  );
  const results = rounds.map((list) => {
    const median = medianRound(list);
    return { ...median, p99Rounds: list.map((r) => r.p99), p99: spread(list.map((r) => r.p99)).median };
  });
  const worstP99 = Math.max(...results.map((r) => r.p99));
  const errors = results.reduce((n, r) => n + r.errors + r.non2xx + r.serverErrors, 0);
  return { connections: ROUTE_CONNECTIONS, results, worstP99, errors };
}

/** The table of {@link loadLists}' results under `title`. */
export function reportLists(
  title: string,
  intro: string,
  { results }: Awaited<ReturnType<typeof loadLists>>,
): void {
  heading(
    `${title} (autocannon, ${ROUTE_CONNECTIONS} connections, ${SETTINGS.rounds} rounds of ${SETTINGS.routeSeconds} s)`,
  );
  console.log(
    `${intro}\np99 is the median of the rounds' p99 (each round's in brackets); req/s and p50 are of the median round.\n`,
  );
  table(
    ['call', 'req/s (2xx)', ...LOAD_COLUMNS, `budget p99 ≤ ${BUDGETS.adminListP99} ms`],
    results.map((r) => [
      r.name,
      fixed(r.requestsPerSecond),
      fixed(r.p50, 1),
      `${fixed(r.p99, 1)} (${r.p99Rounds.map((x) => fixed(x)).join(', ')})`,
      r.ok,
      r.non2xx,
      r.serverErrors,
      r.errors,
      verdict(r.p99 <= BUDGETS.adminListP99),
    ]),
  );
}
