/** The `server` part: the server's routes under load, each round paired with a bare Fastify route. */
import { medianRound, inRounds, load, type LoadResult, type Target } from '../server-load';
import { spread, startBareServer } from '../harness';
import { LOAD_COLUMNS, fixed, heading, loadCells, table } from '../output';
import type { BenchSession } from '../session';
import { ROUTE_CONNECTIONS, SETTINGS } from '../settings';

export function targets(session: BenchSession): Target[] {
  return [
    {
      name: 'GET /connect/userinfo',
      path: '/connect/userinfo',
      headers: { authorization: `Bearer ${session.accessToken}` },
    },
    { name: 'GET /api/team/public/acme', path: '/api/team/public/acme' },
    {
      name: 'POST /account/check',
      path: '/account/check',
      method: 'POST',
      headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf },
    },
  ];
}

const loadRow = (r: LoadResult, ratio: string, ratioOfMedians: string) => [
  r.name,
  fixed(r.requestsPerSecond),
  ratio,
  ratioOfMedians,
  ...loadCells(r),
];
const LOAD_HEADERS = ['route', 'req/s (2xx)', '÷ bare route', '÷ bare, of medians', ...LOAD_COLUMNS];

export async function server(url: string, session: BenchSession) {
  const bare = await startBareServer();
  // userinfo (the budget's route) next to the bare route: in rounds that run in turn forward and
  // backward (inRounds), the two are always measured back to back.
  const [userinfo, ...others] = targets(session);
  const runs = [
    { url: bare.url, target: { name: 'bare Fastify: GET /bare', path: '/bare' } },
    { url, target: userinfo! },
    { url, target: { name: 'GET /healthz (ours, no work)', path: '/healthz' } },
    ...others.map((target) => ({ url, target })),
  ];
  let samples: LoadResult[][];
  try {
    samples = await inRounds(runs.length, SETTINGS.rounds, (index) =>
      load(runs[index]!.url, runs[index]!.target, SETTINGS.routeSeconds, ROUTE_CONNECTIONS, SETTINGS.warmup),
    );
  } finally {
    await bare.stop();
  }
  const [bareRounds, ...routeRounds] = samples as [LoadResult[], ...LoadResult[][]];
  const bareResult = medianRound(bareRounds);
  // Each round's ratio to that round's bare route, and their median: the machine's speed moves by more
  // between rounds than the budget's margin, and a ratio of two medians can pair a fast round with a slow one.
  const routes = routeRounds.map((rounds) => {
    const roundRatios = rounds.map((r, round) => r.requestsPerSecond / bareRounds[round]!.requestsPerSecond);
    const median = medianRound(rounds);
    return {
      ...median,
      ratioToBare: spread(roundRatios).median,
      roundRatios,
      ratioOfMedians: median.requestsPerSecond / bareResult.requestsPerSecond,
    };
  });
  heading(
    `Server throughput on loopback (autocannon, ${ROUTE_CONNECTIONS} connections, ${SETTINGS.rounds} rounds of ${SETTINGS.routeSeconds} s, median round)`,
  );
  console.log(
    'The bare route: its own process with the same Fastify, Node flags, environment and logger level. Each round\n' +
      'measures every route once, in turn forward and backward; "÷ bare route" is the median of the rounds\' own ratios\n' +
      '(each round\'s in brackets), the one the budget reads; "÷ bare, of medians" divides the two median rounds.\n',
  );
  table(
    LOAD_HEADERS,
    [
      loadRow(bareResult, '1.00', '1.00'),
      ...routes.map((r) =>
        loadRow(
          r,
          `${fixed(r.ratioToBare, 2)} (${r.roundRatios.map((x) => fixed(x, 2)).join(', ')})`,
          fixed(r.ratioOfMedians, 2),
        ),
      ),
    ],
    LOAD_HEADERS.map((_, i) => i > 0),
  );
  return {
    connections: ROUTE_CONNECTIONS,
    rounds: SETTINGS.rounds,
    seconds: SETTINGS.routeSeconds,
    bare: bareResult,
    routes,
  };
}
