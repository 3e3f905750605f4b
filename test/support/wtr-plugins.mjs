/**
 * web-test-runner plugins (run with tsx loaded, see package.json):
 * - `bundleTests`: each test file is bundled with esbuild (React and the other CommonJS packages
 *   included), `process.env.NODE_ENV` defined, CSS imported as text — web-test-runner cannot use rollup's
 *   commonjs plugin. A worker's address resolves to one that serves nothing (see `noWorkerUrl`).
 * - `identityServer`: the real reference server, in-process on a free port, reached by the test page
 *   through a same-origin proxy (so cookies and the anti-forgery header behave as on the portal page),
 *   plus harness-only addresses: `/__test/session?email=…`, that signs a seeded user in,
 *   `/__test/end-session?publicId=…`, that ends a session as another device would,
 *   `/__test/setup-link?email=…`, a setup link from acme's owner (its token, as the mail would carry it),
 *   `/__test/email-code-team`, a team that offers sign-in with an e-mail code,
 *   `/__test/big-team`, a team with more members than a screen lists at once, and
 *   `/__test/signup-link?email=…&address=…`, a sign-up's mailed link (its id and token, as the mail
 *   would carry them).
 */
import { createHash, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * A worker's address (`import url from './worker?worker-url'`, built by the bundle's rollup plugin): the
 * unit tests start no worker (they give the screens their own solver), so an address that serves nothing.
 */
const noWorkerUrl = {
  name: 'no-worker-url',
  setup(build) {
    build.onResolve({ filter: /\?worker-url$/ }, (args) => ({ path: args.path, namespace: 'worker-url' }));
    build.onLoad({ filter: /.*/, namespace: 'worker-url' }, () => ({
      contents: "export default '/__test/no-worker.js';",
      loader: 'js',
    }));
  },
};

export function bundleTests() {
  return {
    name: 'bundle-tests',
    async serve(context) {
      if (!/\.test\.tsx?$/.test(context.path)) return undefined;
      const result = await build({
        entryPoints: [resolve(ROOT, `.${context.path}`)],
        bundle: true,
        format: 'esm',
        write: false,
        sourcemap: 'inline',
        target: 'es2022',
        jsx: 'automatic',
        loader: { '.css': 'text' },
        define: { 'process.env.NODE_ENV': '"development"' },
        external: ['/__web-dev-server__web-socket.js'],
        plugins: [noWorkerUrl],
        logLevel: 'silent',
      });
      return { body: result.outputFiles[0].text, type: 'js' };
    },
  };
}

const PROXIED = [
  '/account/',
  '/connect/',
  '/api/',
  '/.well-known/',
  '/policy/',
  '/home/',
  '/healthz',
  '/saml/',
];
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

/**
 * Returns the koa `middleware` (it must run before the dev server's own file serving) and the `plugin`
 * that stops the server at the end.
 */
export function identityServer() {
  let started;
  // The issuer is the dev server's own origin (the proxy), so discovery hands out addresses on it.
  const testApp = (origin) => {
    // Domain lookups go to a loopback DNS server whose records the tests publish (/__test/dns).
    started ??= Promise.all([import('./test-server.ts'), import('./dns.ts'), import('./saml-idp.ts')]).then(
      async ([module, { TestDns }, { TestIdp }]) => {
        const dns = await TestDns.start();
        return {
          module,
          dns,
          idp: new TestIdp(),
          app: await module.createTestApp({ PUBLIC_URL: origin, DNS_SERVERS: dns.address }),
        };
      },
    );
    return started;
  };
  async function middleware(ctx, next) {
    if (ctx.path === '/__test/session') {
      const { module, app } = await testApp(ctx.origin);
      const session = await module.sessionFor(app.app, String(ctx.query.email));
      ctx.set('Cache-Control', 'no-store');
      ctx.append('Set-Cookie', `acct_session=${session.token}; Path=/; HttpOnly; Secure; SameSite=None`);
      ctx.append('Set-Cookie', `XSRF-TOKEN=${session.xsrf}; Path=/; Secure; SameSite=None`);
      ctx.body = { publicId: session.publicId };
      return;
    }
    // A session ended from elsewhere (another device's "sign out everywhere else"): this browser keeps
    // its cookies.
    if (ctx.path === '/__test/end-session') {
      const { app } = await testApp(ctx.origin);
      await app.db.kysely
        .updateTable('sessions')
        .set({ revoked_at: app.clock.now() })
        .where('public_id', '=', String(ctx.query.publicId))
        .execute();
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { ended: true };
      return;
    }
    if (ctx.path === '/__test/setup-link') {
      const { app } = await testApp(ctx.origin);
      const db = app.db.kysely;
      const owner = await db
        .selectFrom('users')
        .select(['id', 'name', 'email', 'team_id'])
        .where('email', '=', 'ada@acme.test')
        .executeTakeFirstOrThrow();
      const token = randomBytes(32).toString('base64url');
      const now = app.clock.now();
      await app.app.services.repos.setupLinks.create({
        teamId: owner.team_id,
        email: String(ctx.query.email),
        tokenHash: createHash('sha256').update(token).digest('base64url'),
        owner: { id: owner.id, name: owner.name, email: owner.email },
        now,
        expiresAt: now + 5 * 24 * 3600_000,
      });
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { token };
      return;
    }
    // A sign-up waiting for its address to be verified, as if mailed: the link's id and token.
    if (ctx.path === '/__test/signup-link') {
      const { app } = await testApp(ctx.origin);
      const token = randomBytes(32).toString('base64url');
      const now = app.clock.now();
      const id = await app.app.services.repos.signUps.begin({
        email: String(ctx.query.email),
        name: 'Nia Newcomer',
        team_name: 'Rocket Science',
        address: String(ctx.query.address),
        language: 'en',
        // No code works: the link is what is tested.
        code_hash: randomBytes(32).toString('base64url'),
        link_hash: createHash('sha256').update(token).digest('base64url'),
        code_expires_at: now + 10 * 60_000,
        created_at: now,
        expires_at: now + 24 * 3600_000,
      });
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { id, token };
      return;
    }
    // A team that offers sign-in with an e-mail code (test/support/email-code.ts), made once.
    if (ctx.path === '/__test/email-code-team') {
      const { app } = await testApp(ctx.origin);
      const { codeTeam, CODE_TEAM, CODE_MEMBER } = await import('./email-code.ts');
      await codeTeam(app);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { team: CODE_TEAM, email: CODE_MEMBER };
      return;
    }
    // A team with more members than a screen lists at once (test/support/big-team.ts), made once.
    if (ctx.path === '/__test/big-team') {
      const { app } = await testApp(ctx.origin);
      const { bigTeam, bigMember, BIG_OWNER, BIG_MEMBERS } = await import('./big-team.ts');
      await bigTeam(app);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { owner: BIG_OWNER, last: bigMember(BIG_MEMBERS) };
      return;
    }
    if (ctx.path === '/__test/dns') {
      const { dns } = await testApp(ctx.origin);
      dns.txt.set(String(ctx.query.name).toLowerCase(), [String(ctx.query.value)]);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { published: true };
      return;
    }
    // The SAML identity provider's metadata, as providers publish it: the server fetches it from here.
    if (ctx.path === '/__test/saml-idp/metadata') {
      const { idp } = await testApp(ctx.origin);
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'application/samlmetadata+xml';
      ctx.body = idp.metadata();
      return;
    }
    // A SAML identity provider (samlify's): its details, and its answer to a test sign-in's address.
    if (ctx.path === '/__test/saml-idp') {
      const { idp } = await testApp(ctx.origin);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = ctx.query.url
        ? await idp.answerRedirect(String(ctx.query.url), { email: String(ctx.query.email) })
        : { entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: idp.pair.cert };
      return;
    }
    if (!PROXIED.some((prefix) => ctx.path.startsWith(prefix))) return next();
    const { app } = await testApp(ctx.origin);
    const chunks = [];
    for await (const chunk of ctx.req) chunks.push(chunk);
    const headers = {};
    for (const [name, value] of Object.entries(ctx.request.headers)) {
      if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers[name] = value;
    }
    const answer = await app.app.inject({
      method: ctx.method,
      url: ctx.url,
      headers,
      payload: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    ctx.status = answer.statusCode;
    for (const [name, value] of Object.entries(answer.headers)) {
      if (HOP_BY_HOP.has(name) || value === undefined) continue;
      if (name === 'set-cookie')
        for (const cookie of [value].flat()) ctx.append('Set-Cookie', String(cookie));
      else ctx.set(name, String(value));
    }
    ctx.body = answer.rawPayload;
  }
  const plugin = {
    name: 'identity-server',
    async serverStop() {
      if (!started) return;
      const { app, dns } = await started;
      await app.close();
      await dns.close();
    },
  };
  return { middleware, plugin };
}
