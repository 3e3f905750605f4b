/**
 * `npm run bench`: measurements in one run, reported as tables on stdout and as JSON in
 * test-results/bench/report.json. Figures are ratios — to a React-only floor built and served the same
 * way, to a bare Fastify route started the same way, to the password-hash bound measured in the same
 * run — because this machine is noisy. Nothing here fails a build: the budgets of design.md §5 and
 * issue 10 are reported (within / OVER), not enforced.
 *
 * `npm run bench -- <part>…` runs some parts: bytes, pages, time, server, login, growth.
 * `BENCH_QUICK=1` (or `--quick`) runs every part with short windows and 2 page loads, for development;
 * its figures are noisy and marked so.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { chunkKind, kb, scripts, sizeOf, sum, type Size } from './bytes';
import { freePort } from '../support/test-server';
import { launchBrowser } from '../support/browser';
import {
  HASH_CONCURRENCY,
  SERVER_ENV,
  hashBound,
  startBareServer,
  pageServerFile,
  startPageServer,
  startServerProcess,
  medianBy,
  spread,
  type LoopDelay,
  type ServerProcess,
} from './harness';
import { pageBytes, type PageBytes } from './page-bytes';
import { wireBytes, type WireBytes, type WireLoad, type WireRequest } from './wire-bytes';
import { composition, cpuProfile } from './profile';
import { growDatabase, type GrowthSeed } from './seed';
import {
  inRounds,
  load,
  medianRound,
  probeDuring,
  type LoadResult,
  type ProbeLatency,
  type Target,
} from './server-load';
import { signIn, type BenchSession } from './session';
import { timeToUsable, type BenchPage, type TimeResult } from './time-to-usable';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'test-results', 'bench');
const DIST = join(ROOT, 'dist');
const FLOOR = join(OUT, 'floor');
const REPORT = join(OUT, 'report.json');

const PARTS = ['bytes', 'pages', 'time', 'profile', 'server', 'login', 'growth'] as const;
/** Parts that run only when asked for by name. */
const EXTRA_PARTS = ['ab'] as const;
type Part = (typeof PARTS)[number] | (typeof EXTRA_PARTS)[number];
const ALL_PARTS: readonly Part[] = [...PARTS, ...EXTRA_PARTS];
/** The `ab` part: another build's `dist/` folder, loaded side by side with this one. */
const OTHER_DIST = process.env.BENCH_AB_DIST ? resolve(process.env.BENCH_AB_DIST) : undefined;

const QUICK = process.env.BENCH_QUICK === '1' || process.argv.includes('--quick');
/** Cold loads per page in the `ab` part: more than `time`, since it is read for differences of a few %. */
const AB_RUNS = QUICK ? 2 : 11;
/** Windows and repetitions; the quick ones are for developing the bench, not for reading figures. */
const SETTINGS = QUICK
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
const ROUTE_CONNECTIONS = 10;
const LOGIN_CONNECTIONS = Math.max(8, 2 * availableParallelism());
const GROWTH_USERS = [10, 1_000, 100_000];
const GROWTH_SESSIONS = 10_000;

/** design.md §5 and issue 10. */
const BUDGETS = {
  loginPageGzip: 105 * 1024,
  everythingGzip: 170 * 1024,
  timeRatio: 1.2,
  userinfoRatio: 0.5,
  loginRatio: 0.8,
  growthDegradation: 0.2,
};

// ---------------------------------------------------------------------------------------------------
// Output

function table(headers: string[], rows: Array<Array<string | number>>, right = headers.map((_, i) => i > 0)) {
  console.log(`| ${headers.join(' | ')} |`);
  console.log(`|${right.map((r) => (r ? '---:' : '---')).join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

const heading = (text: string) => console.log(`\n## ${text}${QUICK ? ' — QUICK RUN, noisy' : ''}\n`);
const fixed = (value: number, digits = 0) => value.toFixed(digits);
const verdict = (ok: boolean) => (ok ? 'within' : 'OVER');

interface BudgetLine {
  budget: string;
  value: string;
  limit: string;
  within: boolean;
}

// ---------------------------------------------------------------------------------------------------
// Bytes: files on disk

function buildFloors(): { login: Size; minimal: Size; header: Size } {
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/rollup/dist/bin/rollup'),
      '-c',
      'test/bench/floor/rollup.floor.mjs',
      '--silent',
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  const of = (dir: string, name: string) =>
    sum(
      scripts(join(FLOOR, dir)).map((path) => sizeOf(path, FLOOR)),
      name,
    );
  return {
    login: of('login', 'React-only login floor'),
    minimal: of('minimal', 'minimal React-only login floor'),
    header: of('header', 'React-only header floor'),
  };
}

function bytes() {
  const floors = buildFloors();
  const files = scripts(DIST).map((path) => sizeOf(path, DIST));
  const esm = files.filter((f) => f.file !== 'acct-elements.iife.js');
  const entry = esm.find((f) => f.file === 'acct-elements.js');
  if (!entry) throw new Error('dist/acct-elements.js is missing: run npm run build');
  const everything = sum(esm, 'everything (ESM entry + every chunk)');
  const lazy = esm
    .filter((f) => f.file.startsWith('chunks/'))
    .map((f) => ({ ...f, kind: chunkKind(f.file) }));
  const kinds = [...new Set(lazy.map((f) => f.kind.replace(/ \(.*\)$/, '')))].map((kind) => ({
    ...sum(
      lazy.filter((f) => f.kind.replace(/ \(.*\)$/, '') === kind),
      kind,
    ),
    kind,
  }));
  heading('Bundle bytes (files on disk)');
  const row = (s: Size, note: string) => [
    s.file,
    kb(s.raw),
    kb(s.gzip),
    kb(s.brotli),
    fixed(s.gzip / floors.login.gzip, 2),
    note,
  ];
  table(
    ['file', 'raw', 'gzip', 'brotli', 'gzip ÷ login floor', 'what'],
    [
      ...files
        .filter((f) => !f.file.startsWith('chunks/'))
        .map((f) => row(f, f.file.includes('iife') ? 'classic script (all in one)' : 'ESM entry')),
      ...lazy.map((f) => row(f, `lazy: ${f.kind}`)),
      ...kinds.map((k) => row({ ...k, file: `${k.kind}: all chunks` }, 'lazy, summed by kind')),
      row(
        everything,
        `budget ${kb(BUDGETS.everythingGzip)} gzip: ${verdict(everything.gzip <= BUDGETS.everythingGzip)}`,
      ),
      row(floors.login, 'the floor of <acct-login>: the same form, React alone'),
      row(floors.minimal, 'reference: the floor of earlier runs (a smaller form, unstyled)'),
      row(floors.header, 'the floor of <acct-header>'),
    ],
    [false, true, true, true, true, false],
  );
  return { files, lazy, lazyByKind: kinds, everything, floors };
}

// ---------------------------------------------------------------------------------------------------
// Pages in Chromium: bytes before usable, and time to usable

function benchPages(pagesUrl: string, serverUrl: string, session: BenchSession): Record<string, BenchPage> {
  return {
    login: {
      name: 'login only: <acct-login team="acme">',
      url: `${pagesUrl}/login-only.html`,
      usable: 'password',
      floor: 'login floor',
      reference: 'minimal login floor',
    },
    loginFloor: { name: 'login floor', url: `${pagesUrl}/floor.html`, usable: 'password' },
    loginMinimalFloor: {
      name: 'minimal login floor',
      url: `${pagesUrl}/minimal-floor.html`,
      usable: 'password',
    },
    header: {
      name: 'header only, signed in: <acct-header>',
      url: `${pagesUrl}/header-only.html`,
      usable: 'initials',
      session: session.token,
      floor: 'header floor',
    },
    headerFloor: {
      name: 'header floor',
      url: `${pagesUrl}/header-floor.html`,
      usable: 'initials',
      session: session.token,
    },
    portal: {
      name: 'full portal first paint, signed in: /manage',
      url: `${serverUrl}/manage`,
      usable: 'portal',
      session: session.token,
    },
  };
}

async function pages(all: Record<string, BenchPage>) {
  const browser = await launchBrowser();
  const results: PageBytes[] = [];
  let wire: WireBytes;
  try {
    for (const page of Object.values(all)) results.push(await pageBytes(browser, page));
    wire = await wireBytes(browser, {
      ...all.login!,
      name: 'login only, the bundle from the identity server',
      url: `${all.login!.url}?bundle=issuer`,
    });
  } finally {
    await browser.close();
  }
  const floorOf = (page: PageBytes) =>
    results.find((r) => r.page === Object.values(all).find((p) => p.name === page.page)?.floor);
  heading('JavaScript fetched before the page is usable (loaded in Chromium, cold)');
  table(
    ['page', 'scripts', 'raw', 'gzip', 'brotli', 'gzip ÷ its floor', 'budget'],
    results.map((r) => {
      const floor = floorOf(r);
      const budget =
        r.page === all.login!.name
          ? `≤ ${kb(BUDGETS.loginPageGzip)} gzip: ${verdict(r.total.gzip <= BUDGETS.loginPageGzip)}`
          : '';
      return [
        r.page,
        r.scripts.map((s) => s.file.replace(/^.*\//, '')).join(', '),
        kb(r.total.raw),
        kb(r.total.gzip),
        kb(r.total.brotli),
        floor ? fixed(r.total.gzip / floor.total.gzip, 2) : '—',
        budget,
      ];
    }),
    [false, false, true, true, true, true, false],
  );
  printWire(wire);
  return { results, wire };
}

/** The sign-in page's requests, cold and warm, side by side (matched by address). */
function printWire(wire: WireBytes) {
  heading('Bytes on the wire: the sign-in page, the bundle from the identity server (Chromium)');
  console.log(
    'login-only.html with the bundle loaded from the identity server (as a partner page does), so what\n' +
      "travels is what the server sends: its compression and caching headers. Bytes are Chromium's\n" +
      "encodedDataLength: each answer's headers and body as received, until the password field shows\n" +
      'and the network has then been quiet for half a second. Cold: a fresh context. Warm: the page\n' +
      'opened again in a new tab of the same context. The page itself comes from the bench page server\n' +
      '(never cached).\n',
  );
  const answer = (r: WireRequest | undefined) =>
    !r
      ? '—'
      : r.status === 0
        ? 'from cache'
        : `${r.status} ${r.encoding === 'identity' ? '' : r.encoding}`.trim();
  const bytesOf = (r: WireRequest | undefined) => (r ? kb(r.wire) : '—');
  const paths = [...new Set([...wire.cold.requests, ...wire.warm.requests].map((r) => r.path))];
  const find = (list: WireRequest[], path: string) => list.find((r) => r.path === path);
  table(
    ['request', 'cold: answer', 'cold: bytes', 'decoded', 'warm: answer', 'warm: bytes'],
    [
      ...paths.map((path) => {
        const cold = find(wire.cold.requests, path);
        const warm = find(wire.warm.requests, path);
        return [path, answer(cold), bytesOf(cold), cold ? kb(cold.body) : '—', answer(warm), bytesOf(warm)];
      }),
      ['the bundle (/dist/…)', '', kb(wire.cold.bundle), '', '', kb(wire.warm.bundle)],
      [
        `all (${wire.cold.requests.length} / ${wire.warm.requests.length} requests)`,
        '',
        kb(wire.cold.total),
        '',
        '',
        kb(wire.warm.total),
      ],
    ],
    [false, false, true, true, false, true],
  );
}

async function time(all: Record<string, BenchPage>) {
  const results = await timeToUsable(
    [all.login!, all.loginFloor!, all.loginMinimalFloor!, all.header!, all.headerFloor!],
    SETTINGS.runs,
  );
  const median = (page: string | null, throttle: number) =>
    results.find((f) => f.page === page && f.throttle === throttle)?.ms.median;
  const rows = results.map((r: TimeResult) => {
    const floor = median(r.floor, r.throttle);
    const reference = median(r.reference, r.throttle);
    return {
      ...r,
      ratio: floor ? r.ms.median / floor : null,
      referenceRatio: reference ? r.ms.median / reference : null,
    };
  });
  heading(`Time to usable (ms since navigation, ${SETTINGS.runs} cold loads each, median/min/max)`);
  console.log(
    'Usable: the sign-in pages when the password field has a layout box; the header pages when the\n' +
      "signed-in user's initials do. The header floor asks the server the same four questions\n" +
      '(discovery, session check, token exchange, user info) and renders the initials with React alone.\n' +
      'The login floor renders the very form <acct-login team="acme"> shows, with the same markup and\n' +
      'stylesheet, with React alone; the minimal login floor (a smaller, unstyled form) was the floor of\n' +
      'earlier runs and is kept for reference only.\n',
  );
  table(
    [
      'page',
      'CPU',
      'median',
      'min',
      'max',
      '÷ floor (median)',
      '÷ minimal floor',
      'JS heap after load',
      'budget',
    ],
    rows.map((r) => [
      r.page,
      `${r.throttle}×`,
      fixed(r.ms.median),
      fixed(r.ms.min),
      fixed(r.ms.max),
      r.ratio === null ? '—' : fixed(r.ratio, 2),
      r.referenceRatio === null ? '—' : fixed(r.referenceRatio, 2),
      kb(r.heapBytes),
      r.ratio === null
        ? ''
        : r.page === all.login!.name
          ? `≤ ${BUDGETS.timeRatio}×: ${verdict(r.ratio <= BUDGETS.timeRatio)}`
          : '(no budget)',
    ]),
    [false, false, true, true, true, true, true, true, false],
  );
  return rows;
}

/**
 * The `ab` part: the sign-in page with this build and with another (`BENCH_AB_DIST`), and the floor,
 * interleaved in one run — the way to judge a change, since single runs on a busy machine move by more
 * than most changes do.
 */
async function ab(all: Record<string, BenchPage>) {
  const a = all.login!;
  const b: BenchPage = {
    ...a,
    name: `the other build (${OTHER_DIST})`,
    url: `${a.url}?build=b`,
  };
  const results = await timeToUsable([a, b, all.loginFloor!], AB_RUNS);
  heading(`A/B: time to the sign-in form, this build and another (${AB_RUNS} cold loads each, interleaved)`);
  const rows = [1, 4].map((throttle) => {
    const of = (page: BenchPage) => results.find((r) => r.page === page.name && r.throttle === throttle)!;
    const [mine, other, floor] = [of(a), of(b), of(all.loginFloor!)];
    return {
      throttle,
      thisBuild: mine.ms,
      otherBuild: other.ms,
      floor: floor.ms,
      thisRatio: mine.ms.median / floor.ms.median,
      otherRatio: other.ms.median / floor.ms.median,
    };
  });
  table(
    ['CPU', 'this build', 'other build', 'floor', 'this ÷ floor', 'other ÷ floor', 'this ÷ other'],
    rows.map((r) => [
      `${r.throttle}×`,
      `${fixed(r.thisBuild.median)} (${fixed(r.thisBuild.min)}–${fixed(r.thisBuild.max)})`,
      `${fixed(r.otherBuild.median)} (${fixed(r.otherBuild.min)}–${fixed(r.otherBuild.max)})`,
      fixed(r.floor.median),
      fixed(r.thisRatio, 2),
      fixed(r.otherRatio, 2),
      fixed(r.thisBuild.median / r.otherBuild.median, 2),
    ]),
  );
  return { otherDist: OTHER_DIST, runs: AB_RUNS, rows };
}

// ---------------------------------------------------------------------------------------------------
// Profile: what costs the bytes and the time of the sign-in page, by source

const PROFILE_THROTTLE = 4;

async function profile(all: Record<string, BenchPage>) {
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

// ---------------------------------------------------------------------------------------------------
// Server throughput

function targets(session: BenchSession): Target[] {
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
  fixed(r.p50, 1),
  fixed(r.p99, 1),
  r.ok,
  r.non2xx,
  r.serverErrors,
  r.errors,
];
const LOAD_HEADERS = [
  'route',
  'req/s (2xx)',
  '÷ bare route',
  '÷ bare, of medians',
  'p50 ms',
  'p99 ms',
  '2xx',
  'non-2xx',
  '5xx',
  'errors',
];

async function server(url: string, session: BenchSession) {
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

// ---------------------------------------------------------------------------------------------------
// Sign-in throughput against the hash bound

interface LoginFigures {
  hashesPerSecond: number;
  load: LoadResult;
  loginsPerSecond: number;
  ratio: number;
  idleProbe: ProbeLatency;
  probe: ProbeLatency;
  loopDelay: LoopDelay;
  connections: number;
  hashConcurrency: number;
  threadpool: number;
}

const LOGIN_TARGET: Target = {
  name: 'POST /account/login',
  path: '/account/login',
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ teamName: 'acme', email: 'ada@acme.test', password: DEMO_PASSWORD }),
};

async function loginFigures(
  server: ServerProcess,
  seconds: number,
  hashesPerSecond: number,
  connections = LOGIN_CONNECTIONS,
): Promise<LoginFigures> {
  const { probe: idleProbe } = await probeDuring(server.url, new Promise((r) => setTimeout(r, 1000)));
  await server.loopDelay(); // start the server's histogram afresh
  const { result, probe } = await probeDuring(
    server.url,
    load(server.url, LOGIN_TARGET, seconds, connections, SETTINGS.loginWarmup),
  );
  const loopDelay = await server.loopDelay();
  return {
    hashesPerSecond,
    load: result,
    loginsPerSecond: result.requestsPerSecond,
    ratio: result.requestsPerSecond / hashesPerSecond,
    idleProbe,
    probe,
    loopDelay,
    connections,
    hashConcurrency: HASH_CONCURRENCY,
    threadpool: Number(SERVER_ENV.UV_THREADPOOL_SIZE),
  };
}

async function login(
  server: ServerProcess,
): Promise<LoginFigures & { boundBefore: number; boundAfter: number }> {
  // The bound before and after the load, averaged: a machine that slows down meanwhile moves both.
  const boundBefore = await hashBound(SETTINGS.boundSeconds);
  const measured = await loginFigures(server, SETTINGS.loginSeconds, boundBefore);
  const boundAfter = await hashBound(SETTINGS.boundSeconds);
  const bound = (boundBefore + boundAfter) / 2;
  const figures = {
    ...measured,
    hashesPerSecond: bound,
    ratio: measured.loginsPerSecond / bound,
    boundBefore,
    boundAfter,
  };
  heading('Sign-in throughput against the password-hash bound');
  console.log(
    `Hash bound: scrypt verifications/s with the server's parameters at its concurrency (${HASH_CONCURRENCY}),\n` +
      `in a process with the same UV_THREADPOOL_SIZE (${SERVER_ENV.UV_THREADPOOL_SIZE}). Load: ${LOGIN_CONNECTIONS} connections\n` +
      `for ${SETTINGS.loginSeconds} s after ${SETTINGS.loginWarmup} s of warm-up; bound measured before / after. Event-loop delay, two ways: the latency of GET /healthz sampled every 50 ms\n` +
      "during the load (idle figure for comparison; includes loopback and the bench's own scheduling), and\n" +
      "the server process's own event-loop delay histogram (perf_hooks, preloaded by the bench).\n",
  );
  const l = figures.load;
  table(
    [
      'hashes/s (bound)',
      'logins/s',
      '÷ bound',
      'p50 ms',
      'p99 ms',
      '2xx',
      'non-2xx',
      '5xx',
      'errors',
      '/healthz p99 idle → load',
      'loop delay p99 (max)',
      'budget',
    ],
    [
      [
        `${fixed(figures.hashesPerSecond, 2)} (${fixed(boundBefore, 2)} / ${fixed(boundAfter, 2)})`,
        fixed(figures.loginsPerSecond, 2),
        fixed(figures.ratio, 2),
        fixed(l.p50),
        fixed(l.p99),
        l.ok,
        l.non2xx,
        l.serverErrors,
        l.errors,
        `${fixed(figures.idleProbe.p99, 1)} → ${fixed(figures.probe.p99, 1)} ms`,
        `${fixed(figures.loopDelay.p99, 1)} (${fixed(figures.loopDelay.max, 1)}) ms`,
        `≥ ${BUDGETS.loginRatio}, 0 5xx: ${verdict(figures.ratio >= BUDGETS.loginRatio && l.serverErrors === 0)}`,
      ],
    ],
  );
  return figures;
}

// ---------------------------------------------------------------------------------------------------
// Growth: the same figures with more data

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

async function growth() {
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

// ---------------------------------------------------------------------------------------------------

type Report = Record<string, unknown> & {
  bytes?: ReturnType<typeof bytes>;
  pages?: PageBytes[];
  wire?: WireBytes;
  time?: Awaited<ReturnType<typeof time>>;
  profile?: Awaited<ReturnType<typeof profile>>;
  server?: Awaited<ReturnType<typeof server>>;
  login?: Awaited<ReturnType<typeof login>>;
  growth?: Awaited<ReturnType<typeof growth>>;
  ab?: Awaited<ReturnType<typeof ab>>;
};

/** The budgets the parts of this run measured. */
function budgets(report: Report, wants: (part: Part) => boolean): BudgetLine[] {
  const lines: BudgetLine[] = [];
  const loginPage = wants('pages') && report.pages?.find((p) => p.page.startsWith('login only'));
  if (loginPage) {
    lines.push({
      budget: 'login-only page: JavaScript before usable (gzip)',
      value: kb(loginPage.total.gzip),
      limit: `≤ ${kb(BUDGETS.loginPageGzip)}`,
      within: loginPage.total.gzip <= BUDGETS.loginPageGzip,
    });
  }
  if (wants('pages') && report.wire) {
    const { cold, warm } = report.wire;
    const bundle = (load: WireLoad) => load.requests.filter((r) => r.path.startsWith('/dist/'));
    const compressed = bundle(cold).every((r) => r.encoding === 'br' || r.encoding === 'gzip');
    const chunksKept = bundle(warm)
      .filter((r) => r.path.startsWith('/dist/chunks/'))
      .every((r) => r.status === 0);
    lines.push({
      budget: 'sign-in page: the bundle served pre-compressed, its chunks kept (bytes on the wire)',
      value: `cold ${kb(cold.bundle)}${compressed ? '' : ' (not all compressed)'}, warm ${kb(warm.bundle)}${chunksKept ? '' : ' (chunks asked again)'}`,
      limit: 'compressed; chunks from cache',
      within: compressed && chunksKept,
    });
  }
  if (wants('bytes') && report.bytes) {
    lines.push({
      budget: 'everything: ESM entry + every chunk (gzip)',
      value: kb(report.bytes.everything.gzip),
      limit: `≤ ${kb(BUDGETS.everythingGzip)}`,
      within: report.bytes.everything.gzip <= BUDGETS.everythingGzip,
    });
  }
  for (const row of (wants('time') && report.time) || []) {
    if (!row.page.startsWith('login only') || row.ratio === null) continue;
    lines.push({
      budget: `time to a visible sign-in form ÷ floor, ${row.throttle}× CPU`,
      value: `${fixed(row.ratio, 2)}× (${fixed(row.ms.median)} ms)`,
      limit: `≤ ${BUDGETS.timeRatio}×`,
      within: row.ratio <= BUDGETS.timeRatio,
    });
  }
  const userinfo = wants('server') && report.server?.routes.find((r) => r.name === 'GET /connect/userinfo');
  if (userinfo) {
    lines.push({
      budget: 'userinfo throughput ÷ bare Fastify route, zero errors',
      value: `${fixed(userinfo.ratioToBare, 2)} (${userinfo.errors + userinfo.non2xx} errors)`,
      limit: `≥ ${BUDGETS.userinfoRatio}, 0 errors`,
      within: userinfo.ratioToBare >= BUDGETS.userinfoRatio && userinfo.errors + userinfo.non2xx === 0,
    });
  }
  if (wants('login') && report.login) {
    lines.push({
      budget: 'sign-in throughput ÷ password-hash bound, zero 5xx',
      value: `${fixed(report.login.ratio, 2)} (${report.login.load.serverErrors} 5xx)`,
      limit: `≥ ${BUDGETS.loginRatio}, 0 5xx`,
      within: report.login.ratio >= BUDGETS.loginRatio && report.login.load.serverErrors === 0,
    });
  }
  if (wants('growth') && report.growth) {
    const worst = report.growth.figures.filter((f) => !f.within);
    lines.push({
      budget: `no figure degrades > 20% from ${GROWTH_USERS[0]} to ${GROWTH_USERS.at(-1)!.toLocaleString('en')} users`,
      value: worst.length
        ? worst.map((f) => `${f.name} ${fixed(f.change * 100)}%`).join('; ')
        : 'none degrades',
      limit: '≤ 20%',
      within: worst.length === 0 && report.growth.errors.every((n) => n === 0),
    });
  }
  return lines;
}

async function main(): Promise<void> {
  const asked = new Set(process.argv.slice(2).filter((a) => !a.startsWith('--')));
  for (const part of asked) {
    if (!ALL_PARTS.includes(part as Part)) throw new Error(`unknown part "${part}": ${ALL_PARTS.join(', ')}`);
  }
  const wants = (part: Part) =>
    (asked.size === 0 && (PARTS as readonly string[]).includes(part)) || asked.has(part);
  if (wants('ab') && !OTHER_DIST)
    throw new Error('the ab part compares with another build: set BENCH_AB_DIST');
  mkdirSync(OUT, { recursive: true });
  // A partial run updates its parts in the last report and keeps the others (each part is a ratio
  // within itself, so parts from different runs do not mix figures).
  const report: Report =
    asked.size && existsSync(REPORT) ? (JSON.parse(readFileSync(REPORT, 'utf8')) as Report) : {};
  Object.assign(report, {
    date: new Date().toISOString(),
    node: process.version,
    cpu: `${availableParallelism()} × ${cpus()[0]?.model ?? 'unknown'}`,
    quick: QUICK,
    settings: {
      ...SETTINGS,
      routeConnections: ROUTE_CONNECTIONS,
      loginConnections: LOGIN_CONNECTIONS,
      server: SERVER_ENV,
    },
    parts: asked.size ? [...asked] : [...PARTS],
  });

  // The parts that load the bench pages in Chromium (they need the floors that `bytes` builds).
  const inBrowser = wants('pages') || wants('time') || wants('profile') || wants('ab');
  if (wants('bytes') || inBrowser) report.bytes = bytes();
  if (inBrowser || wants('server') || wants('login')) {
    // The bench pages are another origin (like a partner site), allowed by the server's CORS list.
    const pagePort = await freePort();
    const identity = await startServerProcess({
      LOGIN_ADDRESS_LIMIT: '1000000',
      CORS_ORIGINS: `http://localhost:${pagePort}`,
    });
    try {
      const session = await signIn(identity.url);
      if (inBrowser) {
        const site = await startPageServer(identity.url, FLOOR, pagePort, OTHER_DIST);
        try {
          const all = benchPages(site.url, identity.url, session);
          if (wants('pages')) {
            const measured = await pages(all);
            report.pages = measured.results;
            report.wire = measured.wire;
          }
          if (wants('time')) report.time = await time(all);
          if (wants('profile')) report.profile = await profile(all);
          if (wants('ab')) report.ab = await ab(all);
        } finally {
          await site.close();
        }
      }
      if (wants('server')) report.server = await server(identity.url, session);
      if (wants('login')) report.login = await login(identity);
    } finally {
      await identity.stop();
    }
  }
  if (wants('growth')) report.growth = await growth();

  const lines = budgets(report, wants);
  heading('Budgets (design.md §5, issue 10)');
  table(
    ['budget', 'value', 'limit', 'verdict'],
    lines.map((l) => [l.budget, l.value, l.limit, verdict(l.within)]),
    [false, true, true, false],
  );
  report.budgets = lines;
  writeFileSync(REPORT, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nJSON: ${join('test-results', 'bench', 'report.json')}`);
}

await main();
