/**
 * The `oidc` part: the OpenID Provider's token endpoint under load — authorization codes exchanged and
 * refresh tokens rotated, per second and p99 — and userinfo with an access token the provider issued,
 * each round paired with the bare Fastify route. The relying party is a confidential client of the
 * server's OIDC_CLIENTS_FILE; its codes come from real authorization requests of a signed-in browser
 * session (cookies only, no browser), minted before each round because a code is single use.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pinnedCores, pinSelf, spread, startBareServer, startServerProcess } from '../harness';
import { LOAD_COLUMNS, fixed, heading, loadCells, table } from '../output';
import { inRounds, load, medianRound, type LoadResult, type Target } from '../server-load';
import { signIn } from '../session';
import { OUT, QUICK, ROUTE_CONNECTIONS, SETTINGS } from '../settings';
import { node24, NODE24_VERSION } from '../../../scripts/node24-runtime.mjs';

const CLIENT_ID = 'bench-app';
const SECRET = 'bench-app-secret-0123456789abcdef0123';
/** Never visited: the bench reads the code from the provider's redirect. */
const REDIRECT = 'http://localhost/callback';
const BASIC = `Basic ${Buffer.from(`${CLIENT_ID}:${SECRET}`).toString('base64')}`;
const VERIFIER = randomBytes(32).toString('base64url');
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const FORM = { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' };
/** Codes minted at once (the browser's parallel requests), and the first round's amount. */
const MINTERS = 4;
const FIRST_AMOUNT = QUICK ? 200 : 600;

/** A browser's cookie jar over fetch, following the provider's redirects by hand. */
export class Browser {
  private readonly jar = new Map<string, string>();

  constructor(cookieHeader: string) {
    for (const part of cookieHeader.split('; ')) {
      const eq = part.indexOf('=');
      this.jar.set(part.slice(0, eq), part.slice(eq + 1));
    }
  }

  /** Follows redirects from an authorization request until the provider sends the code to the app. */
  async authorize(issuer: string, extra: Record<string, string> = {}): Promise<string> {
    const query = new URLSearchParams({
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid profile email',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      ...extra,
    });
    let address = `${issuer}/oidc/auth?${query}`;
    for (let hop = 0; hop < 8; hop++) {
      const response = await fetch(address, {
        redirect: 'manual',
        headers: { cookie: [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      await response.arrayBuffer();
      for (const line of response.headers.getSetCookie()) {
        const pair = line.split(';')[0]!;
        const eq = pair.indexOf('=');
        this.jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      const location = response.headers.get('location');
      if (!location) throw new Error(`the provider answered ${response.status} at ${address}`);
      const next = new URL(location, address);
      if (`${next.origin}${next.pathname}` === REDIRECT) {
        const code = next.searchParams.get('code');
        if (!code) throw new Error(`no code: ${next.search}`);
        return code;
      }
      address = next.href;
    }
    throw new Error('the authorization request never came back to the app');
  }

  /** `count` codes, MINTERS at a time. */
  async codes(issuer: string, count: number): Promise<string[]> {
    const codes: string[] = [];
    await Promise.all(
      Array.from({ length: MINTERS }, async () => {
        while (codes.length < count) codes.push(await this.authorize(issuer));
      }),
    );
    return codes.slice(0, count);
  }
}

export async function exchange(issuer: string, body: string) {
  const response = await fetch(`${issuer}/connect/token`, {
    method: 'POST',
    headers: FORM,
    body,
  });
  if (!response.ok) throw new Error(`token endpoint: ${response.status} ${await response.text()}`);
  return (await response.json()) as { access_token: string; refresh_token?: string };
}

export const codeBody = (code: string) =>
  new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: VERIFIER,
  }).toString();

const LOAD_HEADERS = ['call', 'answers/s (2xx)', '÷ bare route', 'window s', ...LOAD_COLUMNS];

/** The bench's relying party in an OIDC_CLIENTS_FILE; its path. */
export function writeClientsFile(): string {
  const clientsFile = join(OUT, 'oidc-clients.json');
  writeFileSync(
    clientsFile,
    JSON.stringify([
      {
        client_id: CLIENT_ID,
        client_secret: SECRET,
        client_name: 'Bench app',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ]),
  );
  return clientsFile;
}

type Runtime = ReturnType<typeof node24>;

/** The Node a deployment should run (Node 24 LTS, docs/decisions/node-24.md); null where it cannot be had. */
function deploymentNode(): Runtime | null {
  try {
    return node24();
  } catch (error) {
    console.log(`Node ${NODE24_VERSION} could not be installed (${String(error)}): this Node only.`);
    return null;
  }
}

/**
 * The part on this process's Node and on the deployment's. The budget is read on the deployment's: on
 * Node 20, once the provider has answered, its AsyncLocalStorage puts a hook on every promise of every
 * request (docs/decisions/openid-provider.md); Node 24 carries the store without one.
 */
export async function oidc() {
  const deployment = deploymentNode();
  const here = await oidcOn(null);
  if (!deployment || deployment.version === process.version) return { ...here, otherNodes: [] };
  const there = await oidcOn(deployment);
  return { ...there, otherNodes: [here] };
}

async function oidcOn(runtime: Runtime | null) {
  const node = runtime?.version ?? process.version;
  const clientsFile = writeClientsFile();
  // The load generator (this process) and the servers on cores of their own, where the machine allows
  // (harness.ts, docs/decisions/bench-paired-rounds.md); this process gets its cores back at the end.
  const cores = pinnedCores();
  const ownCores = cores ? pinSelf(cores.bench) : null;
  const options = { pinned: true, ...(runtime ? { runtime } : {}) };
  const identity = await startServerProcess({ OIDC_CLIENTS_FILE: clientsFile }, undefined, options);
  const bare = await startBareServer(options);
  try {
    const session = await signIn(identity.url);
    const browser = new Browser(session.cookie);
    // One rotating refresh token per connection, new each round: a round's end cuts off requests whose
    // answers (the next tokens) never come back. offline_access is granted with prompt=consent (OpenID
    // Connect Core §11). One at a time: each goes through an interaction, whose cookies the jar keeps
    // by name only.
    const newChains = async () => {
      const chains: Array<{ access_token: string; refresh_token?: string }> = [];
      for (let connection = 0; connection < ROUTE_CONNECTIONS; connection++) {
        const code = await browser.authorize(identity.url, {
          scope: 'openid profile email offline_access',
          prompt: 'consent',
        });
        const tokens = await exchange(identity.url, codeBody(code));
        if (!tokens.refresh_token) throw new Error('no refresh token for offline_access');
        chains.push(tokens);
      }
      return chains;
    };
    const chains = await newChains();
    let refreshTokens = chains.map((tokens) => tokens.refresh_token!);
    let amount = FIRST_AMOUNT;
    let codes: string[] = [];

    const codeTarget: Target = {
      name: 'POST /connect/token, authorization_code',
      path: '/connect/token',
      method: 'POST',
      headers: FORM,
      next: () => codeBody(codes.pop() ?? 'spent'),
    };
    const targets: Array<{ url: string; target: Target; before?: () => Promise<void> }> = [
      { url: bare.url, target: { name: 'bare Fastify: GET /bare', path: '/bare' } },
      // Userinfo beside the bare route it is compared with, in both directions of the rounds (A B C,
      // C B A): the token rounds, with their writes and bursts of allocation, never come in between.
      {
        url: identity.url,
        target: {
          name: "GET /connect/userinfo, the provider's access token",
          path: '/connect/userinfo',
          headers: { authorization: `Bearer ${chains[0]!.access_token}` },
        },
      },
      {
        url: identity.url,
        target: {
          name: "GET /connect/userinfo, the portal's access token (same server)",
          path: '/connect/userinfo',
          headers: { authorization: `Bearer ${session.accessToken}` },
        },
      },
      {
        url: identity.url,
        target: codeTarget,
        before: async () => {
          codes = await browser.codes(identity.url, amount);
          codeTarget.amount = codes.length;
        },
      },
      {
        url: identity.url,
        target: {
          name: 'POST /connect/token, refresh_token (rotating)',
          path: '/connect/token',
          method: 'POST',
          headers: FORM,
          // A pool of live tokens: a request takes one, its answer gives back the next (rotation).
          next: () =>
            new URLSearchParams({
              grant_type: 'refresh_token',
              refresh_token: refreshTokens.shift() ?? 'spent',
            }).toString(),
          answered: (status, body) => {
            if (status === 200)
              refreshTokens.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
          },
        },
        before: async () => {
          refreshTokens = (await newChains()).map((tokens) => tokens.refresh_token!);
        },
      },
    ];
    const samples = await inRounds(targets.length, SETTINGS.rounds, async (index) => {
      const { url, target, before } = targets[index]!;
      await before?.();
      const result = await load(url, target, SETTINGS.routeSeconds, ROUTE_CONNECTIONS, SETTINGS.warmup);
      // Enough codes next round for a window as long as the others at this round's pace (and its warm-up).
      if (target === codeTarget) {
        amount = Math.max(
          FIRST_AMOUNT,
          Math.ceil((result.requestsPerSecond * SETTINGS.routeSeconds * 5) / 4),
        );
      }
      return result;
    });
    const [bareRounds, ...routeRounds] = samples as [LoadResult[], ...LoadResult[][]];
    const bareResult = medianRound(bareRounds);
    const calls = routeRounds.map((rounds) => {
      const roundRatios = rounds.map(
        (r, round) => r.requestsPerSecond / bareRounds[round]!.requestsPerSecond,
      );
      const ratioSpread = spread(roundRatios);
      return { ...medianRound(rounds), ratioToBare: ratioSpread.median, ratioSpread, roundRatios };
    });
    const placement = cores
      ? `load generator on core ${cores.bench}, servers on ${cores.server}`
      : 'load generator and servers share the cores';
    heading(
      `OpenID Provider on loopback, servers on Node ${node} (autocannon, ${ROUTE_CONNECTIONS} connections, ${SETTINGS.rounds} rounds, median round, ${placement})`,
    );
    console.log(
      'Codes are minted before their round (single use) and the round ends when they are spent: its window follows\n' +
        'its first fifth (the warm-up). Refresh rotates: each connection sends the token its last answer gave.\n' +
        '÷ bare route: the median of the rounds’ own ratios [lowest–highest] (each round’s in brackets).\n',
    );
    const row = (r: LoadResult, ratio: string) => [
      r.name,
      fixed(r.requestsPerSecond),
      ratio,
      fixed(r.seconds, 1),
      ...loadCells(r),
    ];
    table(LOAD_HEADERS, [
      row(bareResult, '1.00'),
      ...calls.map((r) =>
        row(
          r,
          `${fixed(r.ratioToBare, 2)} [${fixed(r.ratioSpread.min, 2)}–${fixed(r.ratioSpread.max, 2)}] (${r.roundRatios.map((x) => fixed(x, 2)).join(', ')})`,
        ),
      ),
    ]);
    return { node, connections: ROUTE_CONNECTIONS, rounds: SETTINGS.rounds, cores, bare: bareResult, calls };
  } finally {
    await bare.stop();
    await identity.stop();
    if (ownCores) pinSelf(ownCores);
  }
}
