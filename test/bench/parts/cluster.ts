/**
 * The `cluster` part (run only when named: `npm run bench -- cluster`): the reference server as three
 * app nodes on one throwaway PostgreSQL (scripts/pg-server.mjs) behind haproxy (test/cluster/support.ts)
 * — userinfo and sign-in throughput through the balancer in front of 1, 2 and 3 nodes, beside one node
 * asked directly, and how long a write's notification takes to reach a listening connection, idle and
 * under load. Every process is on this machine: with 2 cores, more nodes add no CPU, so the figures show
 * what the balancer and the extra nodes cost, not how a cluster of machines scales.
 */
import pg from 'pg';
import { startPostgres } from '../../../scripts/pg-server.mjs';
import { DEMO_PASSWORD } from '../../../demo/server/db/seed';
import { CHANGES_CHANNEL } from '../../../demo/server/db/migrations';
import { Cluster, emptyDatabase } from '../../cluster/support';
import { SERVER_ENV, hashBound } from '../harness';
import { fixed, heading, table } from '../output';
import { inRounds, load, medianRound, type LoadResult, type Target } from '../server-load';
import { signIn } from '../session';
import { LOGIN_CONNECTIONS, ROUTE_CONNECTIONS, SETTINGS } from '../settings';

export interface NotificationDelay {
  samples: number;
  /** From sending the write to the notification's arrival (ms). */
  p50: number;
  p99: number;
  max: number;
  /** From the write's own answer (its commit acknowledged) to the notification's arrival (ms). */
  afterAckP50: number;
  afterAckP99: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
};

/**
 * A write that notifies (a statement trigger fires even when no row matches) from one connection, its
 * notification awaited on another, `count` times or until `until()` says stop (at most 10 s).
 */
async function notificationDelays(
  url: string,
  count: number,
  until?: () => boolean,
): Promise<NotificationDelay> {
  const listener = new pg.Client({ connectionString: url });
  const writer = new pg.Client({ connectionString: url });
  await Promise.all([listener.connect(), writer.connect()]);
  try {
    await listener.query(`listen ${CHANGES_CHANNEL}`);
    const total: number[] = [];
    const afterAck: number[] = [];
    const deadline = Date.now() + 10_000;
    for (let i = 0; i < count && Date.now() < deadline && !until?.(); i++) {
      const arrived = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no notification within 2 s')), 2000);
        listener.once('notification', () => {
          clearTimeout(timer);
          resolve(performance.now());
        });
      });
      const sent = performance.now();
      await writer.query("update users set name = name where id = ''");
      const acknowledged = performance.now();
      const at = await arrived;
      total.push(at - sent);
      afterAck.push(at - acknowledged);
      await new Promise((r) => setTimeout(r, 5));
    }
    return {
      samples: total.length,
      p50: percentile(total, 50),
      p99: percentile(total, 99),
      max: Math.max(...total),
      afterAckP50: percentile(afterAck, 50),
      afterAckP99: percentile(afterAck, 99),
    };
  } finally {
    await Promise.all([listener.end(), writer.end()]);
  }
}

export async function cluster() {
  const postgres = await startPostgres();
  let database: Awaited<ReturnType<typeof emptyDatabase>> | undefined;
  let nodes: Cluster | undefined;
  try {
    database = await emptyDatabase(postgres.url);
    nodes = await Cluster.create({
      databaseUrl: database.url,
      env: { ...SERVER_ENV, LOGIN_ADDRESS_LIMIT: '1000000' },
    });
    const started = Date.now();
    const all = await nodes.startNodes(3, 120_000);
    const startMs = Date.now() - started;
    await nodes.startBalancer();
    const fronts = [
      { name: '1 node, no balancer', url: all[0]!.url },
      { name: '1 node behind haproxy', url: (await nodes.extraBalancer(all.slice(0, 1))).url },
      { name: '2 nodes behind haproxy', url: (await nodes.extraBalancer(all.slice(0, 2))).url },
      { name: '3 nodes behind haproxy', url: (await nodes.extraBalancer(all)).url },
    ];
    const session = await signIn(nodes.url);
    const userinfo = (name: string): Target => ({
      name,
      path: '/connect/userinfo',
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    const login = (name: string): Target => ({
      name,
      path: '/account/login',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ teamName: 'acme', email: 'ada@acme.test', password: DEMO_PASSWORD }),
    });
    const userinfoRounds = await inRounds(fronts.length, SETTINGS.rounds, (index) =>
      load(
        fronts[index]!.url,
        userinfo(fronts[index]!.name),
        SETTINGS.routeSeconds,
        ROUTE_CONNECTIONS,
        SETTINGS.warmup,
      ),
    );
    const loginRuns: LoadResult[] = [];
    for (const front of fronts)
      loginRuns.push(
        await load(
          front.url,
          login(front.name),
          SETTINGS.loginSeconds,
          LOGIN_CONNECTIONS,
          SETTINGS.loginWarmup,
        ),
      );

    // Sign-ins queued in the nodes finish first: "idle" means idle.
    await new Promise((r) => setTimeout(r, 3000));
    const hashesPerSecond = await hashBound(SETTINGS.boundSeconds);
    const idle = await notificationDelays(database.url, 200);
    // The same under userinfo load through the three-node balancer.
    let loaded = false;
    const [, busy] = await Promise.all([
      load(fronts[3]!.url, userinfo('load'), SETTINGS.routeSeconds, ROUTE_CONNECTIONS, 0).finally(
        () => (loaded = true),
      ),
      notificationDelays(database.url, 200, () => loaded),
    ]);

    const rows = fronts.map((front, index) => ({
      front: front.name,
      userinfo: medianRound(userinfoRounds[index]!),
      userinfoRounds: userinfoRounds[index]!.map((r) => r.requestsPerSecond),
      login: loginRuns[index]!,
    }));
    heading(
      `Cluster: 3 nodes on one PostgreSQL behind haproxy (userinfo ${SETTINGS.rounds} rounds of ${SETTINGS.routeSeconds} s, ${ROUTE_CONNECTIONS} connections; sign-in ${SETTINGS.loginSeconds} s, ${LOGIN_CONNECTIONS} connections)`,
    );
    console.log(
      `Every node, the balancer, PostgreSQL and the load generator share this machine's cores: more nodes add\n` +
        'no CPU here, so the rows show what the balancer and extra processes cost, not scaling across machines.\n' +
        'Sign-in is bound by scrypt: the whole machine verifies about ' +
        `${fixed(hashesPerSecond, 1)} hashes/s at the servers' cost (the bound, as the login part measures it), however many nodes.\n` +
        `Three nodes started at once on an empty database in ${startMs} ms.\n`,
    );
    table(
      [
        'front',
        'userinfo req/s (rounds)',
        'p50 ms',
        'p99 ms',
        'sign-ins/s',
        'p50 ms',
        'p99 ms',
        'non-2xx',
        'errors',
      ],
      rows.map((r) => [
        r.front,
        `${fixed(r.userinfo.requestsPerSecond)} (${r.userinfoRounds.map((x) => fixed(x)).join(', ')})`,
        fixed(r.userinfo.p50, 1),
        fixed(r.userinfo.p99, 1),
        fixed(r.login.requestsPerSecond, 1),
        fixed(r.login.p50),
        fixed(r.login.p99),
        r.userinfo.non2xx + r.login.non2xx,
        r.userinfo.errors + r.login.errors,
      ]),
    );
    heading('Cross-node notification delay (a write on one connection → NOTIFY on another)');
    console.log(
      "Measured in the bench process; under load it also runs autocannon, so its own event loop's delay is in\n" +
        "that row. 'After the ack' < 0: the notification came before the write's own answer.\n",
    );
    table(
      ['when', 'samples', 'p50 ms', 'p99 ms', 'max ms', 'after the commit’s ack p50 / p99 ms'],
      (
        [
          ['idle', idle],
          ['under userinfo load (3 nodes)', busy],
        ] as Array<[string, NotificationDelay]>
      ).map(([when, d]) => [
        when,
        d.samples,
        fixed(d.p50, 2),
        fixed(d.p99, 2),
        fixed(d.max, 2),
        `${fixed(d.afterAckP50, 2)} / ${fixed(d.afterAckP99, 2)}`,
      ]),
    );
    return { startMs, hashesPerSecond, rows, notification: { idle, busy } };
  } finally {
    await nodes?.close();
    await database?.drop().catch(() => undefined);
    await postgres.stop();
  }
}
