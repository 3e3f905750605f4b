import type { Insertable, Selectable } from 'kysely';

/**
 * The database schema as Kysely sees it. Times are milliseconds since the epoch (bigint on PostgreSQL,
 * integer on SQLite); flags are 0/1 integers, so the same queries run on both.
 */
export interface TeamsTable {
  id: string;
  /** Lower-case, unique: what users type on the team screen. */
  name: string;
  display_name: string;
  disabled: number;
  local_enabled: number;
  google_enabled: number;
  azure_enabled: number;
  auth0_enabled: number;
  auth0_display_name: string | null;
  /** The brand of the team's mail; null → the deployment's BRAND. */
  brand: string | null;
  created_at: number;
}

export interface UsersTable {
  id: string;
  team_id: string;
  /** Normalised: trimmed and lower-cased. */
  email: string;
  name: string;
  password_hash: string | null;
  password_changed_at: number | null;
  /** Locked by an administrator: sign-in refused (403) until unlocked. */
  locked: number;
  /** The user's language for mail, when known. */
  language: string | null;
  created_at: number;
}

export interface UserPermissionsTable {
  user_id: string;
  permission: string;
}

export interface ExternalAccountsTable {
  id: string;
  user_id: string;
  team_id: string;
  /** Google | AzureAD | Auth0 */
  provider: string;
  /** The provider's subject identifier. */
  subject: string;
  /** Shown as 'connected as {username}'. */
  user_name: string;
  created_at: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value; the value itself is never stored. */
  id_hash: string;
  /** The public handle returned by /account/check and exchanged at /connect/token. */
  public_id: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  /** Absolute expiry (7 days after creation). */
  expires_at: number;
  revoked_at: number | null;
}

export interface PoliciesTable {
  name: string;
  description: string;
  internal: number;
  /** Comma-separated permissions allowed to request this policy as a scope. */
  permissions: string;
  sort_order: number;
}

export interface LoginFailuresTable {
  team_name: string;
  email: string;
  failures: number;
  locked_until: number | null;
  updated_at: number;
}

export interface RateLimitsTable {
  bucket: string;
  window_start: number;
  hits: number;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  /** SHA-256 of the token; the token itself only travels in the mail. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  superseded_at: number | null;
}

/** The three provider kinds: URL slug (`/account/google`) → the name external accounts carry. */
export type ProviderKind = 'google' | 'azure' | 'auth0';

export interface TeamProvidersTable {
  team_id: string;
  kind: ProviderKind;
  /** The OpenID provider's issuer URL; `demo:<kind>` means this server's stand-in (demo mode only). */
  issuer: string;
  client_id: string;
  client_secret: string;
  /** Microsoft: the tenant id (`tid`) a user must come from, if any. */
  allowed_tenant: string | null;
  /** The e-mail domain a user must have, if any. */
  allowed_domain: string | null;
  /** Sign in a not-yet-linked identity whose verified e-mail matches a user of the team (and link it). */
  link_by_email: number;
}

export interface OauthFlowsTable {
  state_hash: string;
  browser_hash: string;
  team_id: string;
  kind: ProviderKind;
  /** 'login' (sign in) or 'link' (connect to the signed-in user). */
  mode: 'login' | 'link';
  user_id: string | null;
  code_verifier: string;
  nonce: string;
  return_url: string | null;
  max_age: number | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface DeviceCodesTable {
  /** SHA-256 of the device code (≥128 random bits); the code itself is only in the QR. */
  code_hash: string;
  user_code: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface Database {
  teams: TeamsTable;
  users: UsersTable;
  user_permissions: UserPermissionsTable;
  external_accounts: ExternalAccountsTable;
  sessions: SessionsTable;
  policies: PoliciesTable;
  login_failures: LoginFailuresTable;
  rate_limits: RateLimitsTable;
  password_resets: PasswordResetsTable;
  team_providers: TeamProvidersTable;
  oauth_flows: OauthFlowsTable;
  device_codes: DeviceCodesTable;
}

export type Team = Selectable<TeamsTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Session = Selectable<SessionsTable>;
