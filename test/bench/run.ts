/**
 * `npm run bench`: measurements in one run, reported as tables on stdout and as JSON in
 * test-results/bench/report.json. Figures are ratios — to a React-only floor built and served the same
 * way, to a bare Fastify route started the same way, to the password-hash bound measured in the same
 * run — because this machine is noisy. Nothing here fails a build: the budgets of design.md §5 are
 * reported (within / OVER), not enforced.
 *
 * `npm run bench -- <part>…` runs some parts: bytes, pages, time, profile, server, oidc, login, proof, growth, members, scim,
 * streams, and `ab` and `cluster` (only when named; parts/). `BENCH_QUICK=1` (or `--quick`) runs every part with short windows and
 * 2 page loads, for development; its figures are noisy and marked so.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/test-server';
import { SERVER_ENV, startPageServer, startServerProcess } from './harness';
import { heading, table, verdict } from './output';
import { ab } from './parts/ab';
import { bytes } from './parts/bytes';
import { cluster } from './parts/cluster';
import { growth } from './parts/growth';
import { login } from './parts/login';
import { members } from './parts/members';
import { oidc } from './parts/oidc';
import { benchPages, pages } from './parts/pages';
import { profile } from './parts/profile';
import { proof } from './parts/proof';
import { scim } from './parts/scim';
import { server } from './parts/server';
import { streams } from './parts/streams';
import { time } from './parts/time';
import { ALL_PARTS, PARTS, budgets, type Part, type Report } from './report';
import { signIn } from './session';
import {
  FLOOR,
  LOGIN_CONNECTIONS,
  OTHER_DIST,
  OUT,
  QUICK,
  REPORT,
  ROUTE_CONNECTIONS,
  SETTINGS,
} from './settings';

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
  if (inBrowser || wants('server') || wants('login') || wants('proof')) {
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
      if (wants('proof')) report.proof = await proof(identity);
    } finally {
      await identity.stop();
    }
  }
  if (wants('oidc')) report.oidc = await oidc();
  if (wants('growth')) report.growth = await growth();
  if (wants('members')) report.members = await members();
  if (wants('scim')) report.scim = await scim();
  if (wants('streams')) report.streams = await streams();
  if (wants('cluster')) report.cluster = await cluster();

  const lines = budgets(report, wants);
  heading('Budgets (design.md §5)');
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
