/**
 * The tables whose writes no node needs to hear of (db/changes.ts), each with why: nothing a node keeps
 * in memory is read from them. Every other table must notify (migration 008's triggers); a server test
 * on PostgreSQL checks that each table is in exactly one of the two lists, so a new table cannot be
 * forgotten (docs/decisions/cross-node-invalidation.md).
 */
export const QUIET_TABLES: Record<string, string> = {
  external_accounts: 'read on each provider sign-in, never kept',
  policies: 'read on each discovery call and token exchange, never kept',
  login_failures: 'the lockout counts: read on each sign-in, never kept',
  rate_limits: 'counted in the database on each call, never kept',
  password_resets: 'single-use tokens: read and spent in one statement',
  email_codes: 'single-use sign-in codes: read and spent in one statement',
  join_requests: 'requests to join a team: read on each call of the asker or an admin, never kept',
  team_providers: 'read on each provider sign-in, never kept',
  oauth_flows: 'single-use provider flows: read and spent in one statement',
  device_codes: 'single-use QR codes: read and spent in one statement',
  member_terms: 'the member search index: read on each search, never kept',
  invitations: 'read on each call, never kept',
  audit_events: 'append-only history, never kept',
  team_apps:
    "a team's applications: read on each client lookup and client token, never kept (the provider keeps a client only under a hash of what was read)",
  team_domains: "a team's e-mail domains: read on each call, never kept",
  team_connections: "a team's identity provider connections: read on each call, never kept",
  setup_links: "setup links: read on each of the IT contact's calls, never kept",
  saml_requests: 'sent SAML requests: spent by their answer in one statement',
  saml_assertions: 'used SAML assertions: kept only until they expire, against replay',
  used_challenges: 'used proof-of-work challenges: kept only until they expire, against replay',
  totp_secrets: 'read on each second step, never kept',
  totp_used_steps: 'single-use TOTP steps: checked and spent in one statement',
  recovery_codes: 'single-use codes: checked and spent in one statement',
  pending_sign_ins: 'single-use second steps: read and spent in one statement',
  passkeys: 'read on each passkey sign-in, never kept (a disabled member is refused through users)',
  webauthn_challenges: 'single-use challenges: read and spent in one statement',
  activity_events: "the user's security log: read on each visit of the screen, never kept",
  known_devices: 'the browsers an account signed in with: read on each sign-in, never kept',
  email_changes: 'single-use e-mail links: read and spent in one statement (the address lives in users)',
  oidc_models:
    "the OpenID Provider's codes, grants and sessions: read on each protocol call, single use in one statement",
  directories: "a team's SCIM directories: the token looked up on each SCIM call, never kept",
  scim_users: 'what SCIM keeps of a member (external id, name parts): read on each SCIM call, never kept',
  scim_groups: 'what SCIM keeps of a group (external id): read on each SCIM call, never kept',
  event_streams: "a team's streaming endpoints: read by each delivery round and each event write, never kept",
  stream_deliveries: 'the events each endpoint still has to take: read and deleted by the delivery rounds',
  server_secrets: 'written once, before any node serves; read at start',
  kysely_migration: 'migrations: run under the start lock before a node serves',
  kysely_migration_lock: 'migrations: run under the start lock before a node serves',
};
