/** A run's parts, its JSON report, and the budgets its parts measured. */
import { kb } from './bytes';
import { fixed } from './output';
import type { ab } from './parts/ab';
import type { bytes } from './parts/bytes';
import type { cluster } from './parts/cluster';
import type { growth } from './parts/growth';
import type { login } from './parts/login';
import type { members } from './parts/members';
import type { oidc } from './parts/oidc';
import type { scim } from './parts/scim';
import type { profile } from './parts/profile';
import type { proof } from './parts/proof';
import type { server } from './parts/server';
import type { streams } from './parts/streams';
import type { time } from './parts/time';
import type { PageBytes } from './page-bytes';
import { BUDGETS, GROWTH_USERS } from './settings';
import type { WireBytes, WireLoad } from './wire-bytes';

export const PARTS = [
  'bytes',
  'pages',
  'time',
  'profile',
  'server',
  'oidc',
  'login',
  'proof',
  'growth',
  'members',
  'scim',
  'streams',
] as const;
/** Parts that run only when asked for by name. */
export const EXTRA_PARTS = ['ab', 'cluster'] as const;
export type Part = (typeof PARTS)[number] | (typeof EXTRA_PARTS)[number];
export const ALL_PARTS: readonly Part[] = [...PARTS, ...EXTRA_PARTS];

export interface BudgetLine {
  budget: string;
  value: string;
  limit: string;
  within: boolean;
}

export type Report = Record<string, unknown> & {
  bytes?: ReturnType<typeof bytes>;
  pages?: PageBytes[];
  wire?: WireBytes;
  time?: Awaited<ReturnType<typeof time>>;
  profile?: Awaited<ReturnType<typeof profile>>;
  server?: Awaited<ReturnType<typeof server>>;
  login?: Awaited<ReturnType<typeof login>>;
  proof?: Awaited<ReturnType<typeof proof>>;
  growth?: Awaited<ReturnType<typeof growth>>;
  ab?: Awaited<ReturnType<typeof ab>>;
  members?: Awaited<ReturnType<typeof members>>;
  scim?: Awaited<ReturnType<typeof scim>>;
  streams?: Awaited<ReturnType<typeof streams>>;
  oidc?: Awaited<ReturnType<typeof oidc>>;
  cluster?: Awaited<ReturnType<typeof cluster>>;
};

/** The budgets the parts of this run measured. */
export function budgets(report: Report, wants: (part: Part) => boolean): BudgetLine[] {
  const lines: BudgetLine[] = [];
  // The English visitor's and the Arabic-speaking visitor's (its language's chunk is the larger).
  const loginPages = (wants('pages') && report.pages?.filter((p) => p.page.startsWith('login only'))) || [];
  for (const loginPage of loginPages) {
    const arabic = loginPage.page.includes('Arabic');
    lines.push({
      budget: `login-only page${arabic ? ', in Arabic' : ''}: JavaScript before usable (gzip)`,
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
    lines.push({
      budget: 'one visitor: ESM entry + every code chunk + one language (gzip)',
      value: kb(report.bytes.visitor.gzip),
      limit: `≤ ${kb(BUDGETS.everythingGzip)}`,
      within: report.bytes.visitor.gzip <= BUDGETS.everythingGzip,
    });
  }
  for (const row of (wants('time') && report.time) || []) {
    if (!row.page.startsWith('login only') || row.ratio === null) continue;
    lines.push({
      budget: `time to a visible sign-in form ÷ floor, ${row.throttle}× CPU`,
      value: row.ratioSpread
        ? `${fixed(row.ratio, 2)}× (rounds ${fixed(row.ratioSpread.min, 2)}–${fixed(row.ratioSpread.max, 2)})`
        : `${fixed(row.ratio, 2)}×`,
      limit: `≤ ${BUDGETS.timeRatio}×`,
      within: row.ratio <= BUDGETS.timeRatio,
    });
  }
  if (wants('streams') && report.streams) {
    const { eventShareOfSignIn: share } = report.streams;
    lines.push({
      budget: "a sign-in's team event (written with an endpoint) ÷ the sign-in at the password-hash bound",
      value: `${fixed(share * 100, 2)} %`,
      limit: `≤ ${BUDGETS.eventShareOfSignIn * 100} %`,
      within: share <= BUDGETS.eventShareOfSignIn,
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
  const providerUserinfoOf = <Call extends { name: string }>(run: { calls: Call[] }) =>
    run.calls.find((r) => r.name.includes("provider's access token"));
  const providerUserinfo = wants('oidc') && report.oidc && providerUserinfoOf(report.oidc);
  if (report.oidc && providerUserinfo) {
    const failed = providerUserinfo.errors + providerUserinfo.non2xx;
    // Read on the deployment's Node; the others are shown beside it (parts/oidc.ts).
    const others = (report.oidc.otherNodes ?? []).map(
      (run) => `; Node ${run.node}: ${fixed(providerUserinfoOf(run)?.ratioToBare ?? NaN, 2)}`,
    );
    lines.push({
      budget: "userinfo with the OpenID Provider's access token ÷ bare Fastify route, zero errors",
      value: `${fixed(providerUserinfo.ratioToBare, 2)} on Node ${report.oidc.node} (${failed} errors${others.join('')})`,
      limit: `≥ ${BUDGETS.userinfoRatio}, 0 errors`,
      within: providerUserinfo.ratioToBare >= BUDGETS.userinfoRatio && failed === 0,
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
  if (wants('members') && report.members) {
    const { worstP99, errors, seed } = report.members;
    lines.push({
      budget: `admin lists (member list and search) p99 at ${seed.members.toLocaleString('en')} members, zero errors`,
      value: `${fixed(worstP99, 1)} ms, worst call (${errors} errors)`,
      limit: `≤ ${BUDGETS.adminListP99} ms, 0 errors`,
      within: worstP99 <= BUDGETS.adminListP99 && errors === 0,
    });
  }
  if (wants('scim') && report.scim) {
    const { worstP99, errors, seed } = report.scim;
    lines.push({
      budget: `SCIM list and filter p99 at ${seed.members.toLocaleString('en')} members, zero errors`,
      value: `${fixed(worstP99, 1)} ms, worst call (${errors} errors)`,
      limit: `≤ ${BUDGETS.adminListP99} ms, 0 errors`,
      within: worstP99 <= BUDGETS.adminListP99 && errors === 0,
    });
  }
  return lines;
}
