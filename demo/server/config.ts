import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { LOOPBACK_HOSTS } from '../../src/contract/app-uris';
import { SCRYPT_LN_MAX, SCRYPT_LN_MIN, SCRYPT_PARAMS } from './lib/password';

export const BRAND_NAMES = ['intoware', 'onsight', 'schenck'] as const;
export type BrandName = (typeof BRAND_NAMES)[number];

/** The server's configuration, read from environment variables and validated at start (see docs/configuration.md). */
export interface Config {
  /** Port of the portal (default 8080; 0 picks a free one). */
  port: number;
  host: string;
  /** The public address of the portal: the issuer, and the base of every link in mail. */
  publicUrl: string;
  /** `postgres://…` selects PostgreSQL; anything else is a SQLite file path. */
  databaseUrl: string;
  dataDir: string;
  /**
   * A key file of the single-machine setup (signing key and HMAC secret): imported once into a
   * database that has no keys yet. Keys live in the database (docs/decisions/keys-in-database.md).
   */
  signingKeyFile: string;
  /** Seals the private keys and secrets in the database (32 bytes); required on PostgreSQL. */
  keyEncryptionKey: Buffer | null;
  /** A new signing key every this many days (0: only by `npm run keys:rotate`). */
  keyRotationDays: number;
  smtpUrl: string | null;
  /** The From address of the mail the server sends. */
  mailFrom: string;
  /** Origins allowed to call the API with credentials (suite apps, partner sites). */
  corsOrigins: string[];
  /** Demo mode: seed data, the partner origin, demo pages. */
  demo: boolean;
  /** Port of the demo's second origin (partner and suite-app pages); 0 disables it. */
  partnerPort: number;
  /**
   * Ports of the demo's stand-in Google, Microsoft, Auth0, Apple and SAML providers, in that order
   * (0 = any free port).
   */
  standinPorts: number[];
  brand: BrandName;
  logLevel: string;
  /** The suite dashboard address given by /api/switcher, if any. */
  dashboardUrl: string | null;
  /** The sign-up address offered on the team screen, if any. */
  signUpUrl: string | null;
  /** The fixed client id of the portal's session → token exchange. */
  portalClientId: string;
  /** The client id of the mobile app that exchanges QR device codes. */
  deviceClientId: string;
  /** `aud` of the access tokens this server issues. */
  accessTokenAudience: string;
  /** Password hashes computed at once, and how many may wait; beyond that → 503. */
  hashConcurrency: number;
  hashQueue: number;
  /**
   * scrypt's cost as log2 of N for new hashes (N=2^17 by default). Tests lower it; a stored hash keeps
   * its own, and one below this is upgraded at the next sign-in.
   */
  hashCost: number;
  /** Sign-in attempts allowed per client address per 5 minutes. */
  loginAddressLimit: number;
  /** Failed sign-ins from one client address per 15 minutes after which each try needs a solved challenge. */
  challengeAddressFailures: number;
  /** Keep and show the address each session signed in from (the sessions screen, the security log). */
  sessionAddresses: boolean;
  /**
   * The OpenID Provider's clients (RFC 7591 client metadata), from the JSON file OIDC_CLIENTS_FILE,
   * plus, in demo mode, the demo suite app's.
   */
  oidcClients: OidcClient[];
  /**
   * The DNS servers a team's domain records are looked up through (`host:port`, from DNS_SERVERS);
   * empty: the system's.
   */
  dnsServers: string[];
  /**
   * Whether the server's requests to addresses an admin typed (a SAML provider's metadata URL) may go
   * to loopback, private and other special-use addresses (OUTBOUND_PRIVATE_ADDRESSES=allow): the demo's
   * and the tests' providers listen on this machine. Refused by default outside demo mode.
   */
  outboundPrivateAddresses: boolean;
  /**
   * The Pwned Passwords range API every new password is checked against (PWNED_PASSWORDS_URL), ending
   * in `/`: the SHA-1's first five hex characters are added to it. Null when unset: the public service,
   * or in demo mode the loopback stand-in (docs/decisions/breached-passwords.md).
   */
  pwnedPasswordsUrl: string | null;
  /** Where the built bundle and the demo pages are. */
  distDir: string;
  demoDir: string;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

/** A client of the OpenID Provider: RFC 7591 metadata, as oidc-provider takes it. */
export interface OidcClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  /** Where the app takes its logout tokens (OpenID Connect Back-Channel Logout 1.0). */
  backchannel_logout_uri?: string;
  /** Whether its logout tokens (and id tokens) carry `sid`; true unless the client says otherwise. */
  backchannel_logout_session_required?: boolean;
  grant_types?: string[];
  response_types?: string[];
  token_endpoint_auth_method?: string;
  client_name?: string;
  /**
   * An app of someone else: the user is asked before it gets their details, and the answer is kept.
   * Absent or false: one of the deployment's own apps, signed in without a question.
   */
  third_party?: boolean;
  /** A team's own app: only that team's members sign in to it (its name, as in `/login/{team}`). */
  team?: string;
  [metadata: string]: unknown;
}

/** A team's name as it stands in its sign-in address. */
const TEAM_NAME = /^[a-z0-9-]{1,63}$/;

/** The demo suite app's client (a public client: code flow with PKCE, no secret). */
export const DEMO_OIDC_CLIENT_ID = 'acct-suite-app';
/** The demo's device client (the device flow, no browser on the device). */
export const DEMO_DEVICE_CLIENT_ID = 'acct-demo-device';
/** The demo's server-side app (a confidential client with back-channel logout). */
export const DEMO_SERVER_CLIENT_ID = 'acct-server-app';
/** The demo's third-party app (a public client too): it asks for consent. */
export const DEMO_PARTNER_CLIENT_ID = 'acct-partner-board';

/**
 * The clients of OIDC_CLIENTS_FILE, checked enough to say what is wrong at start: a JSON array of
 * objects, each with a unique `client_id` and absolute `redirect_uris` (and `post_logout_redirect_uris`,
 * when given) without a fragment; a client whose `grant_types` leave out the code flow needs none;
 * a `backchannel_logout_uri` is https (plain http to a loopback address in demo mode only: the
 * logout token names the user's session). The provider
 * checks the rest of the metadata when it is built.
 */
function readOidcClients(path: string | undefined, demo: boolean, problems: string[]): OidcClient[] {
  if (!path) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    problems.push(`OIDC_CLIENTS_FILE ${path} cannot be read as JSON: ${(error as Error).message}`);
    return [];
  }
  if (!Array.isArray(parsed)) {
    problems.push(`OIDC_CLIENTS_FILE ${path} must hold a JSON array of client metadata objects`);
    return [];
  }
  const seen = new Set<string>();
  const clients: OidcClient[] = [];
  parsed.forEach((entry: unknown, index) => {
    const where = `OIDC_CLIENTS_FILE entry ${index}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${where} must be an object`);
      return;
    }
    const client = entry as Partial<OidcClient>;
    if (typeof client.client_id !== 'string' || !client.client_id) {
      problems.push(`${where} needs a client_id`);
      return;
    }
    if (seen.has(client.client_id)) problems.push(`${where}: client_id ${client.client_id} appears twice`);
    seen.add(client.client_id);
    // A client without the code flow (a device's, RFC 8628) has no redirect URIs and no response types.
    const codeFlow = !Array.isArray(client.grant_types) || client.grant_types.includes('authorization_code');
    if (!codeFlow) {
      client.redirect_uris ??= [];
      client.response_types ??= [];
    }
    const uris = client.redirect_uris;
    if (!Array.isArray(uris) || (codeFlow && uris.length === 0)) {
      problems.push(`${where} (${client.client_id}) needs redirect_uris, a non-empty array`);
      return;
    }
    if (client.third_party !== undefined && typeof client.third_party !== 'boolean')
      problems.push(`${where} (${client.client_id}): third_party must be true or false`);
    if (client.team !== undefined && !(typeof client.team === 'string' && TEAM_NAME.test(client.team)))
      problems.push(`${where} (${client.client_id}): team must be a team's name (a-z, 0-9 and -)`);
    const postLogout = client.post_logout_redirect_uris;
    if (postLogout !== undefined && !Array.isArray(postLogout))
      problems.push(`${where} (${client.client_id}): post_logout_redirect_uris must be an array`);
    for (const uri of [...uris, ...(Array.isArray(postLogout) ? postLogout : [])]) {
      let ok = typeof uri === 'string';
      try {
        ok &&= !new URL(uri as string).hash;
      } catch {
        ok = false;
      }
      if (!ok)
        problems.push(
          `${where} (${client.client_id}): redirect URI ${JSON.stringify(uri)} must be absolute, without #`,
        );
    }
    const backchannel = backchannelLogoutProblem(client, demo);
    if (backchannel) problems.push(`${where} (${client.client_id}): ${backchannel}`);
    clients.push(client as OidcClient);
  });
  return clients;
}

/** What is wrong with a client's back-channel logout metadata, if anything. */
function backchannelLogoutProblem(client: Partial<OidcClient>, demo: boolean): string | null {
  const required = client.backchannel_logout_session_required;
  if (required !== undefined && typeof required !== 'boolean')
    return 'backchannel_logout_session_required must be true or false';
  const uri = client.backchannel_logout_uri;
  if (uri === undefined) return null;
  const where = `backchannel_logout_uri ${JSON.stringify(uri)}`;
  let url: URL;
  try {
    url = new URL(String(uri));
  } catch {
    return `${where} must be an absolute URL`;
  }
  if (typeof uri !== 'string' || url.hash) return `${where} must be an absolute URL, without #`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && demo && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `${where} must be https (plain http only to a loopback address in demo mode)`;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const ROOT = resolve(import.meta.dirname, '..', '..');

/** The public Pwned Passwords range API (https://haveibeenpwned.com/API/v3#PwnedPasswords). */
export const PWNED_PASSWORDS_DEFAULT = 'https://api.pwnedpasswords.com/range/';

/**
 * PWNED_PASSWORDS_URL as the check uses it: https (plain http only to a loopback address, where a
 * stand-in or a local mirror listens), no credentials, query or fragment, ending in `/`.
 */
function rangeApiUrl(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`PWNED_PASSWORDS_URL must be an absolute https URL (got "${raw}")`);
    return null;
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (!secure || url.username || url.password || url.search || url.hash) {
    problems.push(
      `PWNED_PASSWORDS_URL must be https, without credentials, query or fragment (plain http only to a loopback address; got "${raw}")`,
    );
    return null;
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/** Parse and validate the environment; every problem is reported at once. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const value = (name: string) => {
    const raw = env[name]?.trim();
    return raw ? raw : undefined;
  };

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!/^\d+$/.test(raw) || parsed < min || parsed > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return parsed;
  };

  const url = (name: string, fallback: string | null): string | null => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    try {
      const parsed = new URL(raw);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
      return parsed.href.replace(/\/$/, '');
    } catch {
      problems.push(`${name} must be an absolute http(s) URL (got "${raw}")`);
      return fallback;
    }
  };

  const bool = (name: string, fallback: boolean): boolean => {
    const raw = value(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };

  const port = int('PORT', 8080, 0, 65535);
  const partnerPort = int('PARTNER_PORT', 8081, 0, 65535);
  const standinPorts = (value('STANDIN_PORTS') ?? '8082,8083,8084,8085,8086').split(',').map((part) => {
    const parsed = Number(part.trim());
    if (!/^\d+$/.test(part.trim()) || parsed > 65535)
      problems.push(`STANDIN_PORTS must be ports, e.g. 8082,8083,8084,8085,8086 (got "${part}")`);
    return parsed;
  });
  if (standinPorts.length !== 4 && standinPorts.length !== 5)
    problems.push(
      'STANDIN_PORTS must list four or five ports (Google, Microsoft, Auth0, Apple, SAML stand-ins)',
    );
  // Lists written before the SAML stand-in have four: it takes any free port then.
  if (standinPorts.length === 4) standinPorts.push(0);
  const demo = bool('DEMO', true);
  const host = value('HOST') ?? 'localhost';
  const publicUrl = url('PUBLIC_URL', `http://localhost:${port}`) ?? `http://localhost:${port}`;
  const dataDir = resolve(value('DATA_DIR') ?? resolve(ROOT, 'data'));

  const corsOrigins: string[] = [];
  const rawOrigins = value('CORS_ORIGINS');
  const origins =
    rawOrigins !== undefined
      ? rawOrigins
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean)
      : demo && partnerPort
        ? [`http://localhost:${partnerPort}`]
        : [];
  for (const origin of origins) {
    try {
      const parsed = new URL(origin);
      if (parsed.origin !== origin.replace(/\/$/, '') || !/^https?:$/.test(parsed.protocol))
        throw new Error();
      corsOrigins.push(parsed.origin);
    } catch {
      problems.push(`CORS_ORIGINS entries must be origins like https://app.example.com (got "${origin}")`);
    }
  }

  // Node's resolver takes `1.2.3.4`, `1.2.3.4:53` and `[::1]:53`; anything else is refused here.
  const dnsServers = (value('DNS_SERVERS') ?? '')
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);
  for (const server of dnsServers) {
    if (!/^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-f:.]+\](:\d{1,5})?|[0-9a-f:]+)$/i.test(server))
      problems.push(`DNS_SERVERS entries must be addresses like 127.0.0.1:53 or [::1]:53 (got "${server}")`);
  }

  const outbound = (value('OUTBOUND_PRIVATE_ADDRESSES') ?? (demo ? 'allow' : 'refuse')).toLowerCase();
  if (outbound !== 'allow' && outbound !== 'refuse')
    problems.push(`OUTBOUND_PRIVATE_ADDRESSES must be allow or refuse (got "${outbound}")`);

  const pwnedPasswordsUrl = rangeApiUrl(value('PWNED_PASSWORDS_URL'), problems);

  const brand = (value('BRAND') ?? 'intoware').toLowerCase();
  if (!(BRAND_NAMES as readonly string[]).includes(brand)) {
    problems.push(`BRAND must be one of ${BRAND_NAMES.join(', ')} (got "${brand}")`);
  }
  const logLevel = (value('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const smtpUrl = value('SMTP_URL') ?? null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SMTP_URL must start with smtp:// or smtps://');

  const databaseUrl = value('DATABASE_URL') ?? resolve(dataDir, 'portal.db');
  if (/^[a-z]+:\/\//i.test(databaseUrl) && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    problems.push('DATABASE_URL must be postgres://… or a SQLite file path');
  }

  const rawKek = value('KEY_ENCRYPTION_KEY');
  let keyEncryptionKey: Buffer | null = null;
  if (rawKek !== undefined) {
    // base64 or base64url of 32 random bytes (`openssl rand -base64 32`).
    const decoded = /^[A-Za-z0-9+/_-]{43}=?$/.test(rawKek) ? Buffer.from(rawKek, 'base64') : null;
    if (decoded?.length === 32) keyEncryptionKey = decoded;
    else problems.push('KEY_ENCRYPTION_KEY must be 32 bytes in base64, e.g. from `openssl rand -base64 32`');
  } else if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    problems.push(
      'KEY_ENCRYPTION_KEY is required with a PostgreSQL DATABASE_URL: it seals the signing keys stored there (`openssl rand -base64 32`)',
    );
  }

  const oidcClients = readOidcClients(value('OIDC_CLIENTS_FILE'), demo, problems);
  // The demo's device (RFC 8628): try the device flow with any client library, or curl.
  if (demo && !oidcClients.some((client) => client.client_id === DEMO_DEVICE_CLIENT_ID)) {
    oidcClients.push({
      client_id: DEMO_DEVICE_CLIENT_ID,
      client_name: 'Meeting-room screen (demo)',
      redirect_uris: [],
      response_types: [],
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
      token_endpoint_auth_method: 'none',
    });
  }
  if (demo && partnerPort && !oidcClients.some((client) => client.client_id === DEMO_OIDC_CLIENT_ID)) {
    oidcClients.push({
      client_id: DEMO_OIDC_CLIENT_ID,
      client_name: 'Suite app (demo)',
      redirect_uris: [`http://localhost:${partnerPort}/suite-app.html`],
      post_logout_redirect_uris: [`http://localhost:${partnerPort}/suite-app.html`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  }
  // A third-party app for the demo of the consent screen (docs/decisions/oidc-consent.md).
  if (demo && partnerPort && !oidcClients.some((client) => client.client_id === DEMO_PARTNER_CLIENT_ID)) {
    oidcClients.push({
      client_id: DEMO_PARTNER_CLIENT_ID,
      client_name: 'Partner Board (demo)',
      third_party: true,
      redirect_uris: [`http://localhost:${partnerPort}/partner.html`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  }

  // The demo's server-side app (demo/server/server-app.ts): a confidential client told of sign-outs by
  // back-channel logout. Its secret is made at each start and known to this process only.
  if (demo && partnerPort && !oidcClients.some((client) => client.client_id === DEMO_SERVER_CLIENT_ID)) {
    const app = `http://localhost:${partnerPort}/server-app`;
    oidcClients.push({
      client_id: DEMO_SERVER_CLIENT_ID,
      client_name: 'Server app (demo)',
      client_secret: randomBytes(32).toString('base64url'),
      token_endpoint_auth_method: 'client_secret_basic',
      redirect_uris: [`${app}/callback`],
      post_logout_redirect_uris: [`${app}/`],
      backchannel_logout_uri: `${app}/backchannel-logout`,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
  }

  const config: Config = {
    port,
    host,
    publicUrl,
    databaseUrl,
    dataDir,
    signingKeyFile: resolve(value('SIGNING_KEY_FILE') ?? resolve(dataDir, 'keys.json')),
    keyEncryptionKey,
    keyRotationDays: int('KEY_ROTATION_DAYS', 30, 0, 3650),
    smtpUrl,
    mailFrom: value('MAIL_FROM') ?? `no-reply@${new URL(publicUrl).hostname}`,
    corsOrigins,
    demo,
    partnerPort: demo ? partnerPort : 0,
    standinPorts,
    brand: brand as BrandName,
    logLevel,
    dashboardUrl: url(
      'DASHBOARD_URL',
      demo && partnerPort ? `http://localhost:${partnerPort}/suite-app.html` : null,
    ),
    signUpUrl: url('SIGN_UP_URL', null),
    portalClientId: value('PORTAL_CLIENT_ID') ?? 'acct-portal',
    deviceClientId: value('DEVICE_CLIENT_ID') ?? 'acct-mobile',
    accessTokenAudience: value('ACCESS_TOKEN_AUDIENCE') ?? 'acct-api',
    hashConcurrency: int('HASH_CONCURRENCY', Math.max(1, availableParallelism()), 1, 64),
    hashQueue: int('HASH_QUEUE', 64, 0, 10000),
    hashCost: int('HASH_COST', SCRYPT_PARAMS.ln, SCRYPT_LN_MIN, SCRYPT_LN_MAX),
    loginAddressLimit: int('LOGIN_ADDRESS_LIMIT', 100, 1, 1_000_000),
    challengeAddressFailures: int('CHALLENGE_ADDRESS_FAILURES', 10, 1, 1_000_000),
    sessionAddresses: bool('SESSION_ADDRESSES', false),
    oidcClients,
    dnsServers,
    pwnedPasswordsUrl,
    outboundPrivateAddresses: outbound === 'allow',
    distDir: resolve(value('DIST_DIR') ?? resolve(ROOT, 'dist')),
    demoDir: resolve(ROOT, 'demo'),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}
