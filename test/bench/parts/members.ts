/**
 * The `members` part: the admin member list and search with 100,000 members in one team (design §5:
 * admin lists p99 ≤ 50 ms), under load — by name prefix, by e-mail prefix, the first page and a later
 * one — each a median round of autocannon against a server process on a grown copy of the database.
 */
import { spread, startServerProcess } from '../harness';
import { LOAD_COLUMNS, fixed, heading, table, verdict } from '../output';
import { growTeam, type TeamSeed } from '../seed';
import { inRounds, load, medianRound, type LoadResult, type Target } from '../server-load';
import { signIn } from '../session';
import { BUDGETS, MEMBERS, ROUTE_CONNECTIONS, SETTINGS } from '../settings';

/** A cursor as the server makes them (db/members.ts): where a later page starts. */
const cursor = (by: 'name' | 'term', key: string) =>
  Buffer.from(JSON.stringify([by, key, ''])).toString('base64url');

function targets(accessToken: string): Target[] {
  const headers = { authorization: `Bearer ${accessToken}` };
  const list = (name: string, query: string): Target => ({
    name,
    path: `/api/team/members?${query}`,
    headers,
  });
  return [
    list('list by name, first page', 'limit=25'),
    list('list by name, a later page', `limit=25&cursor=${cursor('name', 'mar')}`),
    list('search by name prefix "mar", first page', 'q=mar&limit=25'),
    list('search by name prefix "mar", a later page', `q=mar&limit=25&cursor=${cursor('term', 'martin')}`),
    list('search by e-mail prefix "user5", first page', 'q=user5&limit=25'),
    list(
      'search by e-mail prefix "user5", a later page',
      `q=user5&limit=25&cursor=${cursor('term', 'user5500')}`,
    ),
  ];
}

export async function members() {
  let seed: TeamSeed | undefined;
  const server = await startServerProcess({ LOGIN_ADDRESS_LIMIT: '1000000' }, (file) => {
    seed = growTeam(file, MEMBERS);
  });
  let rounds: LoadResult[][];
  try {
    const session = await signIn(server.url);
    const all = targets(session.accessToken);
    // Every target answers a full page before anything is timed.
    for (const target of all) {
      const response = await fetch(`${server.url}${target.path}`, { headers: target.headers });
      const body = (await response.json()) as { members?: unknown[] };
      if (!response.ok || !body.members?.length)
        throw new Error(`${target.name}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    rounds = await inRounds(all.length, SETTINGS.rounds, (index) =>
      load(server.url, all[index]!, SETTINGS.routeSeconds, ROUTE_CONNECTIONS, SETTINGS.warmup),
    );
  } finally {
    await server.stop();
  }
  const results = rounds.map((list) => {
    const median = medianRound(list);
    return { ...median, p99Rounds: list.map((r) => r.p99), p99: spread(list.map((r) => r.p99)).median };
  });
  const worst = Math.max(...results.map((r) => r.p99));
  const errors = results.reduce((n, r) => n + r.errors + r.non2xx + r.serverErrors, 0);
  heading(
    `Member list and search at ${seed!.members.toLocaleString('en')} members (autocannon, ${ROUTE_CONNECTIONS} connections, ${SETTINGS.rounds} rounds of ${SETTINGS.routeSeconds} s)`,
  );
  console.log(
    `One team grown to ${seed!.members.toLocaleString('en')} members in ${seed!.ms} ms (${seed!.terms.toLocaleString('en')} search terms), signed in as its owner.\n` +
      "p99 is the median of the rounds' p99 (each round's in brackets); req/s and p50 are of the median round.\n",
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
  return { seed: seed!, connections: ROUTE_CONNECTIONS, results, worstP99: worst, errors };
}
