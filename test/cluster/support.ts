/**
 * A real cluster on this machine: app nodes (each `node demo/server/main.ts`, as a deployment runs it)
 * on one PostgreSQL database, behind Debian's haproxy (round robin, health check /healthz, no sticky
 * sessions). Everything listens on 127.0.0.1 only, every wait is bounded, and `close()` kills every
 * process started here (also registered to run if this process exits without it).
 * The PostgreSQL server itself comes from scripts/postgres.mjs (DATABASE_URL names its admin database).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort } from '../support/test-server';

const ROOT = resolve(import.meta.dirname, '..', '..');
export const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

/** Every child process started here, killed on `close()` and, failing that, when this process exits. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGKILL, and wait for the exit (nothing of these processes needs to survive). */
async function stop(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** A fresh, empty database on the PostgreSQL server of `admin` (an admin URL); dropped by `drop()`. */
export async function emptyDatabase(
  admin = process.env.DATABASE_URL,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (!admin)
    throw new Error('DATABASE_URL is not set: run through scripts/postgres.mjs (npm run test:cluster)');
  const name = `cluster_${randomBytes(6).toString('hex')}`;
  const at = (database: string) => Object.assign(new URL(admin), { pathname: `/${database}` }).href;
  const client = new pg.Client({ connectionString: at('postgres') });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  return {
    url: at(name),
    async drop() {
      const dropper = new pg.Client({ connectionString: at('postgres') });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

export interface AppNode {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  output(): string;
}

export interface ClusterOptions {
  databaseUrl: string;
  /** The environment every node shares (SMTP_URL, HASH_COST…). */
  env?: Record<string, string>;
}

/** The environment of one node: everything but its port is the same on every node. */
export function nodeEnvironment(
  databaseUrl: string,
  publicUrl: string,
  keyEncryptionKey: string,
  dataDir: string,
  port: number,
  env: Record<string, string>,
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    DATABASE_URL: databaseUrl,
    KEY_ENCRYPTION_KEY: keyEncryptionKey,
    // The nodes share nothing on disk: the data dir only holds the demo's outbox (unused with SMTP).
    DATA_DIR: dataDir,
    PARTNER_PORT: '0',
    STANDIN_PORTS: '0,0,0,0',
    LOG_LEVEL: 'warn',
    ...env,
  };
}

/**
 * App nodes on one database and a load balancer in front. Nodes start together (`startNodes`), so
 * three on an empty database race for the migrations.
 */
export class Cluster {
  readonly nodes: AppNode[] = [];
  readonly keyEncryptionKey = randomBytes(32).toString('base64');
  private balancer: ChildProcess | null = null;
  private readonly extras: ChildProcess[] = [];
  private readonly dir = mkdtempSync(join(tmpdir(), 'acct-cluster-'));
  balancerPort = 0;

  private constructor(private readonly options: ClusterOptions) {}

  static async create(options: ClusterOptions): Promise<Cluster> {
    const cluster = new Cluster(options);
    cluster.balancerPort = await freePort();
    return cluster;
  }

  /** The address clients use: the balancer's (also every node's PUBLIC_URL, the tokens' issuer). */
  get url(): string {
    return `http://127.0.0.1:${this.balancerPort}`;
  }

  /** The environment a node (or `npm run keys:rotate`) runs with. */
  environment(port = 0): Record<string, string> {
    return nodeEnvironment(
      this.options.databaseUrl,
      this.url,
      this.keyEncryptionKey,
      join(this.dir, `node-${port}`),
      port,
      this.options.env ?? {},
    );
  }

  /** Starts `count` more nodes at once; resolves when each answers /healthz (bounded by `timeoutMs`). */
  async startNodes(count: number, timeoutMs = 60_000): Promise<AppNode[]> {
    const started: AppNode[] = [];
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const name = `n${this.nodes.length + 1}`;
      let log = '';
      const child = track(
        spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'demo/server/main.ts')], {
          cwd: ROOT,
          env: this.environment(port),
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-20_000)));
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-20_000)));
      const node = { name, port, url: `http://127.0.0.1:${port}`, child, output: () => log };
      this.nodes.push(node);
      started.push(node);
    }
    const deadline = Date.now() + timeoutMs;
    await Promise.all(
      started.map(async (node) => {
        for (;;) {
          if (node.child.exitCode !== null) throw new Error(`${node.name} exited:\n${node.output()}`);
          if (Date.now() > deadline)
            throw new Error(`${node.name} did not start in ${timeoutMs} ms:\n${node.output()}`);
          const healthy = await fetch(`${node.url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
            (r) => r.ok,
            () => false,
          );
          if (healthy) return;
          await sleep(100);
        }
      }),
    );
    return started;
  }

  /**
   * (Re)starts haproxy in front of the current nodes: round robin, health checks of /healthz every
   * 200 ms (down after 2 failures), and a request whose connection to a node fails is sent to another.
   */
  async startBalancer(): Promise<void> {
    await stop(this.balancer);
    this.balancer = await this.haproxy(this.balancerPort, this.nodes, 'haproxy.cfg');
  }

  /** Another balancer, on a port of its own, in front of some of the nodes (the bench's 1, 2, 3). */
  async extraBalancer(nodes: AppNode[]): Promise<{ url: string; stop(): Promise<void> }> {
    const port = await freePort();
    const balancer = await this.haproxy(port, nodes, `haproxy-${port}.cfg`);
    this.extras.push(balancer);
    return { url: `http://127.0.0.1:${port}`, stop: () => stop(balancer) };
  }

  private async haproxy(port: number, nodes: AppNode[], file: string): Promise<ChildProcess> {
    const config = join(this.dir, file);
    writeFileSync(
      config,
      haproxyConfig(
        port,
        nodes.map((node) => node.port),
      ),
    );
    const check = spawnSync(HAPROXY, ['-c', '-q', '-f', config], { encoding: 'utf8' });
    if (check.status !== 0)
      throw new Error(`haproxy refused its configuration:\n${check.stderr}${check.stdout}`);
    let log = '';
    const balancer = track(spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] }));
    balancer.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-10_000)));
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (balancer.exitCode !== null) throw new Error(`haproxy exited:\n${log}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return balancer;
      if (Date.now() > deadline) {
        await stop(balancer);
        throw new Error(`haproxy did not answer within 10 s:\n${log}`);
      }
      await sleep(50);
    }
  }

  /** kill -9 of one node, as a crash would. */
  kill(node: AppNode): Promise<void> {
    return stop(node.child);
  }

  /** Stops the balancer and every node (SIGKILL: nothing of theirs needs to survive), removes the dir. */
  async close(): Promise<void> {
    await Promise.all([this.balancer, ...this.extras].map(stop));
    await Promise.all(this.nodes.map((node) => this.kill(node)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** haproxy's configuration: HTTP, round robin over `ports`, health checks, retries on another node. */
export function haproxyConfig(port: number, ports: number[]): string {
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    // A request whose connection to a node cannot be made is sent to another node. A request already
    // sent is not retried: it may have been carried out.
    '  retries 2',
    '  option redispatch 1',
    '  retry-on conn-failure',
    '  option http-keep-alive',
    'frontend portal',
    `  bind 127.0.0.1:${port}`,
    '  default_backend nodes',
    'backend nodes',
    '  balance roundrobin',
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    '  default-server inter 200ms fall 2 rise 2',
    ...ports.map((nodePort, i) => `  server n${i + 1} 127.0.0.1:${nodePort} check`),
    '',
  ].join('\n');
}
