import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { signingPair } from './saml-idp';
import { freePort } from './test-server';

/**
 * A real SAML 2.0 identity provider for the end-to-end tests: Debian's SimpleSAMLphp 1.19 (package
 * `simplesamlphp`, installed by scripts/system-deps.mjs), served by PHP's built-in server on a free
 * loopback port. Nothing under /etc or /usr is changed: a throwaway directory holds its config/ (named
 * by SIMPLESAMLPHP_CONFIG_DIR), its metadata/, its signing key, its sessions and a document root whose
 * `simplesaml` is a link to the package's www/ (PHP's server resolves the PATH_INFO of
 * `/simplesaml/module.php/...` by itself, so no router script is needed).
 */

/** Where Debian's package puts SimpleSAMLphp. */
const SIMPLESAMLPHP = '/usr/share/simplesamlphp';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/**
 * A person who can sign in at the provider's page (exampleauth:UserPass). Their attributes are sent
 * under the names the generic SAML preset reads (`email`, `givenName`, `familyName`, `groups`); the
 * e-mail is the NameID too.
 */
export interface IdpUser {
  username: string;
  password: string;
  email: string;
  givenName?: string;
  familyName?: string;
  groups?: string[];
}

/** The provider's people: two of acme (its verified domain acme.test) and one from elsewhere. */
export const IDP_USERS = {
  dana: {
    username: 'dana',
    password: 'dana-idp-password',
    email: 'dana@acme.test',
    givenName: 'Dana',
    familyName: 'Scully',
    groups: ['engineering', 'sso-admins'],
  },
  fox: {
    username: 'fox',
    password: 'fox-idp-password',
    email: 'fox@acme.test',
    givenName: 'Fox',
    familyName: 'Mulder',
    groups: ['engineering'],
  },
  walter: {
    username: 'walter',
    password: 'walter-idp-password',
    email: 'walter@elsewhere.test',
    givenName: 'Walter',
    familyName: 'Skinner',
    groups: ['management'],
  },
} satisfies Record<string, IdpUser>;

/** A service provider the identity provider answers: its entity ID and where it posts the answer. */
export interface TrustedSp {
  entityId: string;
  acsUrl: string;
}

/** PHP source for a value made of strings, numbers, booleans, null, lists and string-keyed maps. */
function php(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return `'${value.replace(/[\\']/g, '\\$&')}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(php).join(', ')}]`;
  return `[${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${php(key)} => ${php(item)}`)
    .join(', ')}]`;
}

/** A PHP file that sets `$name` to `value`; written aside and renamed, so a request never reads half. */
function writePhp(path: string, name: string, value: unknown) {
  writeFileSync(`${path}.new`, `<?php\n$${name} = ${php(value)};\n`);
  renameSync(`${path}.new`, path);
}

/**
 * Every PHP server started here and its directory: killed and removed on `stop()` and, failing that,
 * when this process exits.
 */
const running = new Map<ChildProcess, string>();
process.once('exit', () => {
  for (const [child, dir] of running) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

export class SimpleSamlPhp {
  /** The provider's entity ID: its metadata's address, as SimpleSAMLphp names a hosted IdP. */
  readonly entityId: string;
  /** Its SingleSignOnService (HTTP-Redirect binding). */
  readonly ssoUrl: string;
  /** Its published IdP metadata. */
  readonly metadataUrl: string;
  private readonly sps = new Map<string, TrustedSp>();

  private constructor(
    readonly baseUrl: string,
    /** The certificate it signs with (PEM). */
    readonly certificate: string,
    readonly users: readonly IdpUser[],
    private readonly dir: string,
    private readonly child: ChildProcess,
    private readonly output: () => string,
  ) {
    this.metadataUrl = `${baseUrl}saml2/idp/metadata.php`;
    this.entityId = this.metadataUrl;
    this.ssoUrl = `${baseUrl}saml2/idp/SSOService.php`;
  }

  /** Start one on a free loopback port with `users`; resolves once it serves its metadata. */
  static async start(users: readonly IdpUser[] = Object.values(IDP_USERS)): Promise<SimpleSamlPhp> {
    if (!existsSync(join(SIMPLESAMLPHP, 'www', '_include.php')))
      throw new Error(
        `SimpleSAMLphp is not installed (${SIMPLESAMLPHP}): run node scripts/system-deps.mjs simplesamlphp`,
      );
    for (let attempt = 1; ; attempt++) {
      try {
        return await SimpleSamlPhp.startOnce(users);
      } catch (error) {
        // Another process may take the free port before PHP listens on it: try another one.
        if (!String(error).includes('Address already in use') || attempt === 3) throw error;
      }
    }
  }

  private static async startOnce(users: readonly IdpUser[]): Promise<SimpleSamlPhp> {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}/simplesaml/`;
    const dir = mkdtempSync(join(tmpdir(), 'acct-simplesamlphp-'));
    const at = (...parts: string[]) => join(dir, ...parts);
    for (const sub of ['config', 'metadata', 'cert', 'sessions', 'data', 'tmp', 'log', 'www'])
      mkdirSync(at(sub));
    symlinkSync(join(SIMPLESAMLPHP, 'www'), at('www', 'simplesaml'));
    // A year, as a provider's certificate runs: the screen warns of one that ends within 30 days.
    const pair = signingPair(365, '/CN=SimpleSAMLphp test IdP');
    writeFileSync(at('cert', 'idp.key'), pair.key, { mode: 0o600 });
    writeFileSync(at('cert', 'idp.crt'), pair.cert);
    // Cookie names are per host, not per port: each provider's own, should two share a browser.
    const cookie = (name: string) => `${name}${port}`;
    writePhp(at('config', 'config.php'), 'config', {
      baseurlpath: baseUrl,
      certdir: at('cert') + '/',
      loggingdir: at('log') + '/',
      datadir: at('data') + '/',
      tempdir: at('tmp'),
      metadatadir: at('metadata') + '/',
      'metadata.sources': [{ type: 'flatfile', directory: at('metadata') + '/' }],
      secretsalt: `salt-${crypto.randomUUID()}`,
      'auth.adminpassword': crypto.randomUUID(),
      technicalcontact_name: 'acct-elements tests',
      technicalcontact_email: 'idp-admin@acme.test',
      timezone: 'UTC',
      'enable.saml20-idp': true,
      // exampleauth is off by default in 1.19 (its module has `default-disable`).
      'module.enable': { core: true, saml: true, exampleauth: true },
      'store.type': 'phpsession',
      'session.phpsession.savepath': at('sessions'),
      'session.phpsession.cookiename': cookie('SimpleSAML'),
      'session.cookie.name': cookie('SimpleSAMLSessionID'),
      'session.authtoken.cookiename': cookie('SimpleSAMLAuthToken'),
      // Plain http on loopback: secure cookies would never come back, and SameSite=None needs them.
      'session.cookie.secure': false,
      'session.cookie.samesite': null,
      'language.cookie.secure': false,
      'language.cookie.samesite': null,
      // Its log goes to PHP's standard error, kept for a failing test's message.
      'logging.handler': 'errorlog',
      'logging.level': 5, // SimpleSAML\Logger::NOTICE
      showerrors: true,
      errorreporting: false,
      production: false,
      'admin.checkforupdates': false,
    });
    writePhp(at('config', 'authsources.php'), 'config', {
      admin: ['core:AdminPassword'],
      users: {
        0: 'exampleauth:UserPass',
        ...Object.fromEntries(
          users.map((user) => [
            `${user.username}:${user.password}`,
            {
              email: user.email,
              ...(user.givenName ? { givenName: user.givenName } : {}),
              ...(user.familyName ? { familyName: user.familyName } : {}),
              ...(user.groups?.length ? { groups: user.groups } : {}),
            },
          ]),
        ),
      },
    });
    writePhp(at('metadata', 'saml20-idp-hosted.php'), 'metadata', {
      [`${baseUrl}saml2/idp/metadata.php`]: {
        host: '__DEFAULT__',
        privatekey: 'idp.key',
        certificate: 'idp.crt',
        auth: 'users',
        'saml20.sign.assertion': true,
        NameIDFormat: EMAIL_FORMAT,
        'simplesaml.nameidattribute': 'email',
      },
    });
    writePhp(at('metadata', 'saml20-sp-remote.php'), 'metadata', {});

    const child = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', at('www')], {
      env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: at('config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.set(child, dir);
    let log = '';
    const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const idp = new SimpleSamlPhp(baseUrl, pair.cert, users, dir, child, () => log);
    try {
      await idp.ready();
      return idp;
    } catch (error) {
      await idp.stop();
      throw error;
    }
  }

  /** Wait until the provider serves its metadata (bounded), or fail with PHP's output. */
  private async ready() {
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`php -S exited:\n${this.output()}`);
      try {
        const response = await fetch(this.metadataUrl, { signal: AbortSignal.timeout(5_000) });
        if (response.ok) return;
        if (Date.now() > deadline)
          throw new Error(`SimpleSAMLphp answered ${response.status}:\n${await response.text()}`);
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`SimpleSAMLphp did not start: ${String(error)}\n${this.output()}`, {
            cause: error,
          });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Answer this service provider from now on: its entity ID and ACS URL (HTTP-POST), as an admin
   * registers an application at their provider. Read by the next request (PHP reads it each time).
   */
  trust(sp: TrustedSp): void {
    this.sps.set(sp.entityId, sp);
    writePhp(
      join(this.dir, 'metadata', 'saml20-sp-remote.php'),
      'metadata',
      Object.fromEntries(
        [...this.sps.values()].map(({ entityId, acsUrl }) => [
          entityId,
          { AssertionConsumerService: [{ Binding: POST, Location: acsUrl }] },
        ]),
      ),
    );
  }

  /** What PHP's server and SimpleSAMLphp logged lately (requests, errors), for a failing test. */
  log(): string {
    return this.output();
  }

  /** Stop PHP's server and remove the directory. */
  async stop(): Promise<void> {
    const { child } = this;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
    running.delete(child);
  }
}

/**
 * A SimpleSAMLphp identity provider for the tests of the current suite (or file): started before them,
 * stopped after them.
 */
export function useSimpleSamlPhp(users?: readonly IdpUser[]): { readonly idp: SimpleSamlPhp } {
  let idp: SimpleSamlPhp | undefined;
  before(async () => {
    idp = await SimpleSamlPhp.start(users);
  });
  after(async () => {
    await idp?.stop();
  });
  return {
    get idp() {
      if (!idp) throw new Error('the identity provider starts in a before hook: use it inside tests');
      return idp;
    },
  };
}
