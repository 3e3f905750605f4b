import type { Generated, Insertable, Selectable } from 'kysely';
import type { ConnectionPreset, ConnectionProtocol, SamlPurpose } from '../../../src/contract/connections';
import type { DomainCheckProblem, DomainState } from '../../../src/contract/domains';
import type { DirectorySignIn } from '../../../src/contract/directories';
import type { StreamProblem, StreamState } from '../../../src/contract/event-streams';

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
  /** Members plus pending invitations may not exceed it. */
  seat_limit: Generated<number>;
  /** How many users the team has: kept by triggers on users (migration 006). */
  member_count: Generated<number>;
  /** Moves whenever a member comes, goes or changes address (triggers, migration 031). */
  roster_version: Generated<number>;
  /** Reported by the suite's apps (`PUT /api/team/storage`). */
  storage_used_bytes: Generated<number>;
  storage_limit_bytes: Generated<number>;
  apple_enabled: Generated<number>;
  /** The support panel: the team's account manager. */
  manager_name: string | null;
  manager_email: string | null;
  manager_phone: string | null;
  /** Members must sign in with a second step (and enrol one at their next sign-in). */
  require_two_step: Generated<number>;
  /** Passkey sign-in as the first step (a passkey as the second step does not depend on it). */
  passkeys_enabled: Generated<number>;
  /** Members may sign in with a code mailed to them (routes/email-code.ts). */
  email_code_enabled: Generated<number>;
  /** Made by a sign-up: its owner sees the first-steps checklist until they put it away (1). */
  checklist: Generated<number>;
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
  /** Disabled by a team admin: no sign-in, no session, no token works (null: enabled). */
  disabled_at: number | null;
  /** The last successful sign-in, by any method. */
  last_sign_in_at: number | null;
  /** The name folded for sorting (db/member-terms.ts); the member list's order. */
  name_key: Generated<string>;
}

export interface UserPermissionsTable {
  user_id: string;
  permission: string;
}

export interface ExternalAccountsTable {
  id: string;
  user_id: string;
  team_id: string;
  /** Google | AzureAD | Auth0 | Apple */
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
  /** How the user signed in: RFC 8176 `amr` values, space-separated (pwd, otp, hwk, swk, mfa…). */
  amr: Generated<string>;
  /** The browser's User-Agent at sign-in (at most 512 characters), parsed when listed. */
  user_agent: Generated<string | null>;
  /** The address it signed in from, when SESSION_ADDRESSES is on. */
  address: Generated<string | null>;
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

/** A sign-in code mailed to a member: ten minutes, single use, superseded by the next one. */
export interface EmailCodesTable {
  id: string;
  user_id: string;
  /** HMAC-SHA-256 of the six digits under the server's secret, bound to the row's id. */
  code_hash: string;
  /** SHA-256 of the link's token; the token itself only travels in the mail. */
  link_hash: string;
  /** SHA-256 of the cookie of the browser that asked: the link signs in there only. */
  browser_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  superseded_at: number | null;
}

/** The provider kinds: URL slug (`/account/google`) → the name external accounts carry. */
export type ProviderKind = 'google' | 'azure' | 'auth0' | 'apple';

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
  /** A sign-in that accepts this invitation (checked when the round trip started). */
  invitation_id: string | null;
}

/** One object of the OpenID Provider (oidc-provider's adapter, db/oidc-models.ts). */
export interface OidcModelsTable {
  /** The provider's model name: Session, Interaction, AuthorizationCode, RefreshToken, Grant, … */
  model: string;
  id: string;
  /** The provider's payload, as JSON. */
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  /** Milliseconds since the epoch; null: kept until destroyed. */
  expires_at: number | null;
  consumed_at: number | null;
  /** Sessions only: the public id of the portal session that finished its login. */
  portal_session: string | null;
  /** Sessions only: 1 once that portal session has ended (set by triggers, migration 012). */
  portal_ended: number | null;
  /** The user the object belongs to (the payload's `accountId`), when it has one. */
  account_id: string | null;
  /** A grant's last use (ms): when a code or a refresh token was last issued under it. */
  used_at: number | null;
  /** The client it was issued to (the payload's `clientId`), when it has one. */
  client_id: string | null;
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

/** A member's searchable texts (db/member-terms.ts), one row each. */
export interface MemberTermsTable {
  team_id: string;
  term: string;
  user_id: string;
  /** The longest start shared with an earlier term of the same member (db/member-terms.ts). */
  shadow: number;
}

export interface InvitationsTable {
  /** Public: it is in the link, with the token. */
  id: string;
  team_id: string;
  /** Normalised like users' addresses. */
  email: string;
  /** JSON array of the permissions the invitee gets. */
  permissions: string;
  /** SHA-256 of the token; the token itself only travels in the mail. */
  token_hash: string;
  invited_by: string | null;
  /** The inviter's language: the mail's. */
  language: string;
  created_at: number;
  sent_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
  /** Resent: a newer row (another id and token) took its place. */
  superseded_at: number | null;
}

export interface GroupsTable {
  id: string;
  team_id: string;
  name: string;
  /** The name folded: unique per team. */
  name_key: string;
  created_at: number;
}

export interface GroupMembersTable {
  group_id: string;
  user_id: string;
  /** `sso:<connection id>` when that connection's provider gave it; null when an admin did. */
  source: Generated<string | null>;
}

export interface AuditEventsTable {
  /** Sorts by time (db/audit.ts). */
  id: string;
  team_id: string;
  /** Null when an API client acted. */
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  action: string;
  /** Whom or what the action was about, as text (an address, a group's name…). */
  target: string;
  /** JSON object. */
  detail: string;
  created_at: number;
  /** Where the request came from, when the team keeps addresses. */
  address: string | null;
  /** The server's id of the request that caused the event. */
  request_id: string | null;
}

/** The kinds of a team's application (db/team-apps.ts). */
export type TeamAppKind = 'web' | 'spa' | 'native' | 'device' | 'machine';

/** A team's e-mail domain and the DNS record that proves it is the team's (db/domains.ts). */
/** Where a request to join stands: the code not yet entered, waiting for an admin, or decided. */
export type JoinRequestState = 'unverified' | 'pending' | 'approved' | 'declined';

/** A request to join a team from an address at one of its verified domains (db/join-requests.ts). */
export interface JoinRequestsTable {
  id: string;
  team_id: string;
  email: string;
  name: string;
  /** The requester's language: the code, the invitation and the answer are mailed in it. */
  language: string;
  state: JoinRequestState;
  /** HMAC-SHA-256 of the mailed code while `unverified`; null once entered. */
  code_hash: string | null;
  code_expires_at: number | null;
  /** Wrong codes entered for this request. */
  attempts: number;
  created_at: number;
  decided_by: string | null;
  decided_at: number | null;
}

export interface TeamDomainsTable {
  /** Lower case, ASCII form (src/contract/domains.ts `normalDomain`). */
  domain: string;
  team_id: string;
  /** 128 random bits, hex: the TXT record holds `acct-verification=<token>`. */
  token: string;
  state: DomainState;
  created_at: number;
  verified_at: number | null;
  /** When the record was last looked up (ms), and what was wrong then (null: it was there). */
  checked_at: number | null;
  last_problem: DomainCheckProblem | null;
  /** A verified domain's record has been missing since (ms); null while it is there. */
  missing_since: number | null;
  /** The connection its addresses sign in through (once verified, and while it is enabled). */
  connection_id: string | null;
  /** 1: its addresses sign in only through that connection (the team's owners excepted). */
  require_sso: number;
  /** 1: a verified requester at this domain is invited without an admin's approval, seat allowing. */
  auto_join: number;
}

/** A one-time link an owner mailed to the company's IT contact (db/setup-links.ts). */
export interface SetupLinksTable {
  id: string;
  team_id: string;
  /** The IT contact's address, normalised like users' addresses. */
  email: string;
  /** SHA-256 of the token; the token itself only travels in the mail. */
  token_hash: string;
  /** The owner who sent it; null once they are gone. */
  created_by: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** When it was first opened: from then on it works only in that browser. */
  opened_at: number | null;
  /** SHA-256 of the cookie of the browser that first opened it. */
  browser_hash: string | null;
}

/** A team's connection to its company's identity provider (db/connections.ts). */
export interface TeamConnectionsTable {
  id: string;
  team_id: string;
  protocol: ConnectionProtocol;
  preset: ConnectionPreset;
  name: string;
  /** SAML: the provider's entity ID and single sign-on URL (HTTP-Redirect binding). */
  idp_entity_id: string | null;
  sso_url: string | null;
  /** JSON array of PEM certificates the provider signs with. */
  certificates: string;
  /** The provider's metadata address the details were last read from (null: typed or pasted). */
  metadata_url: string | null;
  /** JSON {@link ConnectionMapping}. */
  mapping: string;
  idp_initiated: number;
  enabled: number;
  /** JSON array of the permissions a member made by their first sign-in here gets. */
  default_permissions: string;
  /** OpenID Connect: the provider's issuer, this site's client id there, and its secret (sealed). */
  issuer: string | null;
  client_id: string | null;
  client_secret: string | null;
  /** When a test sign-in last passed (null: never; it can be enabled only after one). */
  tested_at: number | null;
  /** JSON: the last test sign-in's result (src/contract/schemas/connections.ts `ConnectionTest`). */
  last_test: string | null;
  created_at: number;
  updated_at: number;
}

/** A SAML request this site sent, until its answer comes back (InResponseTo), spent once. */
export interface SamlRequestsTable {
  id: string;
  connection_id: string;
  purpose: SamlPurpose;
  expires_at: number;
  /** A sign-in's: SHA-256 of the flow cookie of the browser that started it (null: a test). */
  browser_hash: string | null;
  /** A sign-in's: where the browser goes once signed in. */
  return_url: string | null;
  /** OpenID Connect's (the id is then the state): the PKCE verifier and the nonce. */
  code_verifier: string | null;
  nonce: string | null;
}

/** An assertion already used, kept until it expires so that it cannot be used again. */
export interface SamlAssertionsTable {
  connection_id: string;
  assertion_id: string;
  expires_at: number;
}

/** A team's own application: an OpenID Connect client, or a machine credential (client credentials). */
export interface TeamAppsTable {
  client_id: string;
  team_id: string;
  name: string;
  kind: TeamAppKind;
  /** JSON array of the exact redirect URIs (empty for device and machine apps). */
  redirect_uris: string;
  /** JSON array of the exact post-logout redirect URIs. */
  post_logout_redirect_uris: string;
  backchannel_logout_uri: string | null;
  /** 1: the app asks the user's consent (docs/decisions/oidc-consent.md). */
  third_party: number;
  /** 1: the app is off (no sign-in, no token, its tokens refused). */
  disabled: number;
  /** SHA-256 of the secret (256 random bits: no slow hash needed); null for public apps. */
  secret_hash: string | null;
  /** Space-separated scopes a machine app may ask for. */
  scopes: string;
  created_at: number;
  updated_at: number;
  /** When the app last got a token or a code (ms), if ever. */
  last_used_at: number | null;
}

export interface TotpSecretsTable {
  user_id: string;
  /** The base32 key, sealed (lib/sealing.ts). */
  sealed_secret: string;
  created_at: number;
  /** Null until a code from the app confirmed it: only then is two-step sign-in on. */
  confirmed_at: number | null;
}

export interface TotpUsedStepsTable {
  user_id: string;
  /** The RFC 6238 time step (seconds since the epoch / 30) whose code was accepted. */
  step: number;
  used_at: number;
}

export interface RecoveryCodesTable {
  /** SHA-256 of the normalised code. */
  code_hash: string;
  user_id: string;
  created_at: number;
  used_at: number | null;
}

export interface PendingSignInsTable {
  /** SHA-256 of the cookie value. */
  id_hash: string;
  user_id: string;
  /** The methods done so far (`amr` values, space-separated). */
  amr: string;
  /** The team requires two-step sign-in and the user has none yet: only enrolment is allowed. */
  must_enrol: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface PasskeysTable {
  id: string;
  /** The credential id, base64url. */
  credential_id: string;
  user_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of the authenticator's transports. */
  transports: string;
  /** 'singleDevice' | 'multiDevice' */
  device_type: string;
  backed_up: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A proof-of-work solution already accepted (lib/proof-of-work.ts); dropped once its challenge expires. */
export interface UsedChallengesTable {
  /** SHA-256 of the challenge's HMAC signature (base64url). */
  signature_hash: string;
  expires_at: number;
}

export interface WebauthnChallengesTable {
  /** SHA-256 of the challenge (base64url, as the client data carries it). */
  challenge_hash: string;
  /** register: a new passkey; authenticate: a sign-in; reauth: a signed-in user proving presence. */
  purpose: 'register' | 'authenticate' | 'reauth';
  /** SHA-256 of the session id hash (registration) or of the browser cookie (sign-in). */
  binding_hash: string;
  /** The user registering; null for a sign-in (discoverable: the credential names the user). */
  user_id: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A token signing key (docs/decisions/keys-in-database.md). */
export interface SigningKeysTable {
  /** The public JWK's thumbprint (RFC 7638): the `kid` of the tokens it signs. */
  kid: string;
  /** 1, 2, 3…: unique, so two nodes rotating at once add one key, not two. */
  generation: number;
  /** JSON of the public JWK. */
  public_jwk: string;
  /** The private JWK, sealed with KEY_ENCRYPTION_KEY (lib/sealing.ts). */
  private_jwk: string;
  created_at: number;
  /** From when it signs: published ahead of it, so verifiers that cache the JWKS know it in time. */
  not_before: number;
}

/** Secrets every node shares (the anti-forgery HMAC secret), sealed like the private keys. */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

/** One entry of a user's security log (lib/activity.ts); kept 90 days. */
export interface ActivityEventsTable {
  /** Sorts by time (like audit events). */
  id: string;
  user_id: string;
  /** An open list of words: `signIn`, `passwordChanged`, `sessionEnded`… */
  kind: string;
  /** JSON object: method, success, browser, os, address, provider… as the kind has them. */
  detail: string;
  created_at: number;
}

export interface KnownDevicesTable {
  user_id: string;
  /** Browser family + operating system, as parsed from the User-Agent. */
  device_key: string;
  first_seen_at: number;
}

export interface EmailChangesTable {
  id: string;
  user_id: string;
  old_email: string;
  new_email: string;
  /** SHA-256 of the confirmation token (mailed to the new address). */
  token_hash: string;
  /** SHA-256 of the undo token (mailed to the old address). */
  undo_hash: string;
  created_at: number;
  expires_at: number;
  confirmed_at: number | null;
  superseded_at: number | null;
  undone_at: number | null;
}

export type { DirectorySignIn };

/** A team's directory: a SCIM 2.0 client (Okta, Entra ID…) and its one bearer token. */
/** A team's streaming endpoint (db/event-streams.ts). */
export interface EventStreamsTable {
  id: string;
  team_id: string;
  url: string;
  /** The signing secret (`whsec_…`), sealed (lib/sealing.ts) with the context `event-stream:<id>`. */
  secret: string;
  /** The secret before the last rotation, sealed the same way; it signs too until the overlap ends. */
  previous_secret: string | null;
  state: StreamState;
  /** The number of the endpoint's last delivery row. */
  next_seq: number;
  created_at: number;
  rotated_at: number | null;
  last_delivery_at: number | null;
  /** The first failure of the present run of failures. */
  failing_since: number | null;
  /** Failures in a row (the backoff's exponent). */
  failures: number;
  last_problem: StreamProblem | null;
  last_status: number | null;
  /** Nothing is sent before this time (the backoff). */
  next_attempt_at: number;
  disabled_at: number | null;
  /** The node delivering now (a random id per claim), and until when its claim holds. */
  lease_holder: string | null;
  lease_until: number | null;
}

/** An event an endpoint still has to take, numbered in the order the events committed. */
export interface StreamDeliveriesTable {
  stream_id: string;
  seq: number;
  event_id: string;
}

export interface DirectoriesTable {
  id: string;
  team_id: string;
  name: string;
  /** SHA-256 of the token (256 random bits: no slow hash needed). */
  token_hash: string;
  sign_in: DirectorySignIn;
  /** Who made it, as they were named then: the invitation mail of its members names them. */
  created_by_name: string;
  created_by_email: string;
  created_at: number;
  /** When its token was last replaced, if ever. */
  rotated_at: number | null;
  /** When its token was last presented, if ever (ms). */
  last_used_at: number | null;
}

/** What SCIM keeps of a member beyond the team's own columns. */
export interface ScimUsersTable {
  user_id: string;
  team_id: string;
  /** The directory's id for the member (SCIM `externalId`), unique per team. */
  external_id: string | null;
  /** The name's parts as the directory sent them (shown while they still make up the name). */
  given_name: string | null;
  family_name: string | null;
  updated_at: number;
  /** SCIM `userName` as the directory sent it, when it set one; else the member's address is it. */
  user_name: string | null;
  /** Its lower case: unique per team, what a filter on userName compares. */
  user_name_key: string | null;
}

/** What SCIM keeps of a group beyond the team's own columns. */
export interface ScimGroupsTable {
  group_id: string;
  team_id: string;
  external_id: string | null;
  updated_at: number;
}

/** A team being started (routes/sign-up.ts): one per address until the team is made or a day passes. */
export interface SignUpsTable {
  id: string;
  /** Normalised: trimmed and lower-cased. */
  email: string;
  name: string;
  team_name: string;
  /** The team's address (`/login/{address}`) as last asked for. */
  address: string;
  /** The language of the mail and of the new member. */
  language: string;
  /** HMAC of the six-digit code, bound to the row. */
  code_hash: string;
  /** SHA-256 of the link's token. */
  link_hash: string;
  /** The code and link work until then; 0 once one was used (single use). */
  code_expires_at: number;
  /** SHA-256 of the ticket the verified address got; null until verified. */
  ticket_hash: string | null;
  verified_at: number | null;
  created_at: number;
  /** The whole sign-up is forgotten then. */
  expires_at: number;
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
  email_codes: EmailCodesTable;
  sign_ups: SignUpsTable;
  team_providers: TeamProvidersTable;
  oauth_flows: OauthFlowsTable;
  device_codes: DeviceCodesTable;
  member_terms: MemberTermsTable;
  invitations: InvitationsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  audit_events: AuditEventsTable;
  team_apps: TeamAppsTable;
  team_domains: TeamDomainsTable;
  join_requests: JoinRequestsTable;
  team_connections: TeamConnectionsTable;
  setup_links: SetupLinksTable;
  saml_requests: SamlRequestsTable;
  saml_assertions: SamlAssertionsTable;
  totp_secrets: TotpSecretsTable;
  totp_used_steps: TotpUsedStepsTable;
  recovery_codes: RecoveryCodesTable;
  pending_sign_ins: PendingSignInsTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  used_challenges: UsedChallengesTable;
  signing_keys: SigningKeysTable;
  server_secrets: ServerSecretsTable;
  activity_events: ActivityEventsTable;
  known_devices: KnownDevicesTable;
  email_changes: EmailChangesTable;
  oidc_models: OidcModelsTable;
  directories: DirectoriesTable;
  scim_users: ScimUsersTable;
  scim_groups: ScimGroupsTable;
  event_streams: EventStreamsTable;
  stream_deliveries: StreamDeliveriesTable;
}

export type Team = Selectable<TeamsTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Session = Selectable<SessionsTable>;
export type SigningKeyRow = Selectable<SigningKeysTable>;
export type Invitation = Selectable<InvitationsTable>;
export type SetupLinkRow = Selectable<SetupLinksTable>;
export type PendingSignIn = Selectable<PendingSignInsTable>;
export type Passkey = Selectable<PasskeysTable>;
