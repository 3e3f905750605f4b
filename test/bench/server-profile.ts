/**
 * What one userinfo request costs the server in CPU, by source: `node --import tsx
 * test/bench/server-profile.ts [seconds]`. The identity server runs with `--cpu-prof` while autocannon
 * loads `/connect/userinfo` with the provider's access token, then with the portal's; for each window
 * it prints the process's CPU time per answer (user + system, from /proc, threads and GC included) and
 * the profile's self time per answer by package or file and by function. Unlike throughput, CPU time
 * per answer hardly moves when other processes load the machine, so a change can be judged on a busy
 * machine: compare the totals, and the rows, before and after. `PROFILE_NODE=24` runs both servers on
 * Node 24 (the deployment's line); `KEEP_PROFILE=<file>` keeps the raw profile there.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  pinnedCores,
  pinSelf,
  spread,
  startBareServer,
  startServerProcess,
  type ServerProcess,
} from './harness';
import { fixed, heading, table } from './output';
import { Browser, codeBody, exchange, writeClientsFile } from './parts/oidc';
import { inRounds, load, type Target } from './server-load';
import { signIn } from './session';
import { OUT, ROOT, ROUTE_CONNECTIONS } from './settings';
import { node24 } from '../../scripts/node24-runtime.mjs';

const SECONDS = Number(process.argv[2] ?? 3);
const ROUNDS = Number(process.argv[3] ?? 3);
const TICKS_PER_SECOND = 100;

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface Profile {
  nodes: Array<{ id: number; callFrame: CallFrame }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The process's CPU time so far (user + system), in microseconds. */
function cpuMicros(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the command name's closing parenthesis.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6;
}

/** A frame's source: the npm package, our file, or V8's own name for native work. */
function sourceOf(frame: CallFrame): string {
  if (!frame.url) return frame.functionName.startsWith('(') ? frame.functionName : 'native';
  const path = frame.url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return path.startsWith('node:') ? path : relative(ROOT, path);
}

interface Window {
  name: string;
  answers: number;
  /** Each round's process CPU time per answer, µs. */
  cpu: number[];
  spans: Array<[number, number]>;
  bySource: Map<string, number>;
  byFunction: Map<string, number>;
}

/** Self time per answer of the samples in the window's spans (µs, the profile's own clock). */
function attribute(profile: Profile, window: Window) {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    if (!window.spans.some(([from, to]) => at >= from && at < to)) continue;
    const frame = frames.get(profile.samples[i]!)!;
    if (frame.functionName === '(idle)') continue;
    const weight = (profile.timeDeltas[i + 1] ?? 0) / window.answers;
    const source = sourceOf(frame);
    const name = `${frame.functionName || '(anonymous)'} ${source}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    window.bySource.set(source, (window.bySource.get(source) ?? 0) + weight);
    window.byFunction.set(name, (window.byFunction.get(name) ?? 0) + weight);
  }
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const profiles = mkdtempSync(join(tmpdir(), 'server-profile-'));
  const cores = pinnedCores();
  if (cores) pinSelf(cores.bench);
  const nodeFlags = ['--cpu-prof', `--cpu-prof-dir=${profiles}`, '--cpu-prof-interval=200'];
  // PROFILE_NODE=24: both servers on Node 24, the deployment's line (scripts/node24-runtime.mjs).
  const runtime = process.env.PROFILE_NODE === '24' ? { runtime: node24() } : {};
  const identity = await startServerProcess({ OIDC_CLIENTS_FILE: writeClientsFile() }, undefined, {
    nodeFlags,
    pinned: true,
    ...runtime,
  });
  const bare = await startBareServer({ pinned: true, ...runtime });
  let windows: Window[];
  try {
    const session = await signIn(identity.url);
    const code = await new Browser(session.cookie).authorize(identity.url);
    const provider = await exchange(identity.url, codeBody(code));
    const targets: Array<{ server: ServerProcess; target: Target }> = [
      { server: bare, target: { name: 'bare Fastify route (not profiled)', path: '/bare' } },
      {
        server: identity,
        target: {
          name: "userinfo, the provider's token",
          path: '/connect/userinfo',
          headers: { authorization: `Bearer ${provider.access_token}` },
        },
      },
      {
        server: identity,
        target: {
          name: "userinfo, the portal's token",
          path: '/connect/userinfo',
          headers: { authorization: `Bearer ${session.accessToken}` },
        },
      },
    ];
    windows = targets.map(({ target }) => ({
      name: target.name,
      answers: 0,
      cpu: [],
      spans: [],
      bySource: new Map(),
      byFunction: new Map(),
    }));
    // Warm the JIT, then windows in rounds (forward and backward, as the bench's load parts).
    for (const { server, target } of targets) await load(server.url, target, 2, ROUTE_CONNECTIONS, 0);
    await inRounds(targets.length, ROUNDS, async (index) => {
      const { server, target } = targets[index]!;
      const window = windows[index]!;
      const pid = server.child.pid!;
      const cpuBefore = cpuMicros(pid);
      const from = Number(process.hrtime.bigint() / 1000n);
      const result = await load(server.url, target, SECONDS, ROUTE_CONNECTIONS, 0);
      const to = Number(process.hrtime.bigint() / 1000n);
      const answers = result.ok + result.non2xx;
      if (result.non2xx || result.errors) throw new Error(`${target.name}: ${result.non2xx} non-2xx`);
      window.cpu.push((cpuMicros(pid) - cpuBefore) / answers);
      window.answers += answers;
      window.spans.push([from, to]);
    });
  } finally {
    await bare.stop();
    await identity.stop();
  }
  const file = readdirSync(profiles).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('the server wrote no profile');
  // V8's profile clock and process.hrtime are both the monotonic clock, in µs here.
  const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8')) as Profile;
  if (process.env.KEEP_PROFILE) writeFileSync(process.env.KEEP_PROFILE, readFileSync(join(profiles, file)));
  rmSync(profiles, { recursive: true, force: true });
  heading(
    `CPU time per answer (process: user + system, µs), ${ROUNDS} rounds of ${SECONDS} s, ${ROUTE_CONNECTIONS} connections, ${cores ? `load generator on core ${cores.bench}, servers on ${cores.server}` : 'not pinned'}`,
  );
  table(
    ['target', 'median', 'rounds'],
    windows.map((w) => [w.name, fixed(spread(w.cpu).median), w.cpu.map((us) => fixed(us)).join(', ')]),
  );
  for (const window of windows.slice(1)) {
    attribute(profile, window);
    const sampled = [...window.bySource.values()].reduce((n, us) => n + us, 0);
    heading(
      `${window.name}: main-thread self time per answer, ${fixed(sampled, 0)} µs sampled (wall time: includes waiting for the core)`,
    );
    const top = (map: Map<string, number>, count: number) =>
      [...map.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, count)
        .map(([name, us]) => [name, fixed(us, 1), `${fixed((us / sampled) * 100, 1)}%`]);
    table(['source', 'µs per answer', 'share'], top(window.bySource, 25), [false, true, true]);
    table(['function (self)', 'µs per answer', 'share'], top(window.byFunction, 40), [false, true, true]);
  }
}

await main();
