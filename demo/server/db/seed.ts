import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { PRESET_MAPPINGS } from '../../../src/contract/connections';
import { PERMISSIONS, type Permission } from '../../../src/contract/permissions';
import type { Clock } from '../lib/clock';
import { sha256 } from '../lib/crypto';
import { fold, memberTerms, sortKey } from './member-terms';
import type { PasswordHasher } from '../lib/password';
import type { Database, ProviderKind } from './schema';
import { machineAppRow } from './team-apps';

/** The password of every seeded user that has one (README, design §4). */
export const DEMO_PASSWORD = 'portal-demo-pass';

interface TeamSeed {
  name: string;
  display_name: string;
  disabled?: boolean;
  local?: boolean;
  google?: boolean;
  azure?: boolean;
  auth0?: string;
  apple?: boolean;
  seats: number;
  /** Storage used and allowed, in bytes. */
  storage: [number, number];
  /** The account manager on the support panel: name, e-mail, phone. */
  manager?: [string, string, string];
}

const GB = 1_000_000_000;

/**
 * Demo teams' provider configuration: every one points at this server's stand-in providers (`demo:…`),
 * registered with these client ids and secrets. Pointing a team at the real Google is a row change.
 */
export const DEMO_PROVIDERS: Array<{ team: string; kind: ProviderKind; tenant?: string }> = [
  { team: 'acme', kind: 'google' },
  { team: 'acme', kind: 'apple' },
  { team: 'acme', kind: 'azure', tenant: 'acme' },
  { team: 'acme', kind: 'auth0' },
  { team: 'umbrella', kind: 'azure', tenant: 'umbrella' },
];
export const demoClient = (kind: string) => ({
  id: `acct-portal-${kind}`,
  secret: `demo-secret-${kind}-not-for-production`,
});

interface UserSeed {
  team: string;
  email: string;
  name: string;
  password: boolean;
  permissions: Permission[];
  locked?: boolean;
  external?: Array<{ provider: 'Google' | 'AzureAD' | 'Auth0'; subject: string }>;
}

export const DEMO_TEAMS: TeamSeed[] = [
  {
    name: 'acme',
    display_name: 'Acme',
    local: true,
    google: true,
    azure: true,
    auth0: 'Acme SSO',
    apple: true,
    seats: 10,
    storage: [90 * GB, 100 * GB],
    manager: ['Priya Natarajan', 'priya.natarajan@accounts.example', '+44 20 7946 0321'],
  },
  {
    name: 'globex',
    display_name: 'Globex',
    local: true,
    seats: 5,
    storage: [12 * GB, 50 * GB],
    manager: ['Tomás Ortega', 'tomas.ortega@accounts.example', '+44 20 7946 0555'],
  },
  { name: 'initech', display_name: 'Initech', local: true, disabled: true, seats: 10, storage: [0, 10 * GB] },
  // Signs its people in through the demo's stand-in SAML provider (standin/saml.ts), by their domain.
  { name: 'initrode', display_name: 'Initrode', local: true, seats: 10, storage: [1 * GB, 10 * GB] },
  {
    name: 'umbrella',
    display_name: 'Umbrella',
    local: false,
    azure: true,
    seats: 3,
    storage: [2.5 * GB, 20 * GB],
    manager: ['Mei Tanaka', 'mei.tanaka@accounts.example', '+44 20 7946 0777'],
  },
];

export const DEMO_USERS: UserSeed[] = [
  {
    team: 'acme',
    email: 'ada@acme.test',
    name: 'Ada Lovelace',
    password: true,
    permissions: ['OWNER'],
    external: [{ provider: 'Google', subject: 'google-ada' }],
  },
  {
    team: 'acme',
    email: 'bob@acme.test',
    name: 'Bob Stone',
    password: false,
    permissions: ['EDITOR'],
    external: [{ provider: 'Google', subject: 'google-bob' }],
  },
  { team: 'globex', email: 'carol@globex.test', name: 'Carol Diaz', password: true, permissions: ['ADMIN'] },
  {
    team: 'acme',
    email: 'locked@acme.test',
    name: 'Lee Locke',
    password: true,
    permissions: ['SPOKE'],
    locked: true,
  },
  {
    team: 'umbrella',
    email: 'dan@umbrella.test',
    name: 'Dan Okafor',
    password: false,
    permissions: ['EDITOR'],
    external: [{ provider: 'AzureAD', subject: 'azure-dan' }],
  },
  {
    team: 'initrode',
    email: 'peter@initrode.test',
    name: 'Peter Gibbons',
    password: true,
    permissions: ['OWNER'],
  },
];

/**
 * The demo's team API credential (docs/configuration.md: Team API credentials): a suite app reports acme's storage with
 * it. Demo only: a deployment makes its own, with a random 256-bit secret.
 */
export const DEMO_API_CLIENT = {
  team: 'acme',
  id: 'acme-storage-reporter',
  secret: 'demo-storage-secret-acme-not-for-production',
  name: 'Acme storage reporter',
  scopes: 'team.storage',
};

/**
 * The demo's verified e-mail domains, so a newcomer sees one on the Domains screen (and the sign-ins it
 * routes). `.test` names exist in no DNS: the daily check finds no record, and after the grace period
 * a long-running demo shows the domain as no longer verified, as a deployment would.
 */
export const DEMO_DOMAINS = [
  { team: 'acme', domain: 'acme.test', token: 'de770de770de770de770de770de770de' },
  { team: 'initrode', domain: 'initrode.test', token: '1a17e0de1a17e0de1a17e0de1a17e0de' },
];

/** Teams' groups, so the groups a provider names have one to land in. */
export const DEMO_GROUPS = [{ team: 'initrode', name: 'Engineering' }];

/**
 * The demo's SAML connection: initrode's to the stand-in provider, which `initrode.test` signs in
 * through. Made in demo mode only, where the stand-in runs; its fixed id keeps its service provider
 * addresses the same from start to start.
 */
export const DEMO_SAML_CONNECTION = {
  id: '5a4c0000-de70-4000-8000-000000000001',
  team: 'initrode',
  name: 'Initrode SSO',
  domain: 'initrode.test',
  permissions: ['EDITOR'] satisfies Permission[],
};

/** The stand-in SAML provider's details, new at each start (its certificate is made then). */
export interface DemoSamlProvider {
  entityId: string;
  ssoUrl: string;
  cert: string;
}

const ALL: Permission[] = [...PERMISSIONS];
const MAKERS: Permission[] = ['OWNER', 'ADMIN', 'EDITOR'];

/** Policy definitions after the public product's; a policy lists the permissions that may request it. */
export const DEMO_POLICIES: Array<{
  name: string;
  description: string;
  internal?: boolean;
  permissions: Permission[];
}> = [
  { name: 'Job_Read', description: 'Read jobs', permissions: ALL },
  { name: 'Job_Modify', description: 'Create and modify jobs', permissions: MAKERS },
  { name: 'Query_Read', description: 'Run saved queries', permissions: ALL },
  { name: 'Query_Admin', description: 'Manage saved queries', permissions: ['OWNER', 'ADMIN'] },
  { name: 'Reports_Read', description: 'Read reports', permissions: ALL },
  { name: 'Reports_Create', description: 'Create reports', permissions: [...MAKERS, 'APPROVER'] },
  { name: 'Workflow_Read', description: 'Read workflows', permissions: ALL },
  { name: 'Workflow_Execute', description: 'Execute workflows', permissions: [...MAKERS, 'SPOKE'] },
  { name: 'Team_Admin', description: 'Administer the team', permissions: ['OWNER'] },
  {
    name: 'Internal_Sync',
    description: 'Internal: device synchronisation',
    internal: true,
    permissions: ['OWNER'],
  },
  { name: 'Internal_Audit', description: 'Internal: audit export', internal: true, permissions: ['OWNER'] },
];

/** A demo team's seats, storage and account manager. */
const adminSettings = (team: TeamSeed) => ({
  apple_enabled: team.apple ? 1 : 0,
  seat_limit: team.seats,
  storage_used_bytes: team.storage[0],
  storage_limit_bytes: team.storage[1],
  manager_name: team.manager?.[0] ?? null,
  manager_email: team.manager?.[1] ?? null,
  manager_phone: team.manager?.[2] ?? null,
});

/**
 * The demo's SAML connection, pointed at the stand-in as it runs now (its address and certificate
 * change from start to start). Made enabled, as if tested, with its domain routed to it; made again if
 * an admin removed it.
 */
async function seedSamlConnection(
  trx: Transaction<Database>,
  teamId: string,
  provider: DemoSamlProvider,
  now: number,
): Promise<number> {
  const { id, name, domain, permissions } = DEMO_SAML_CONNECTION;
  const details = {
    idp_entity_id: provider.entityId,
    sso_url: provider.ssoUrl,
    certificates: JSON.stringify([provider.cert]),
  };
  const result = await trx
    .insertInto('team_connections')
    .values({
      id,
      team_id: teamId,
      protocol: 'saml',
      preset: 'saml',
      name,
      ...details,
      metadata_url: null,
      mapping: JSON.stringify(PRESET_MAPPINGS.saml),
      idp_initiated: 0,
      enabled: 1,
      default_permissions: JSON.stringify(permissions),
      tested_at: now,
      last_test: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  const made = Number(result.numInsertedOrUpdatedRows ?? 0n);
  if (made) {
    await trx
      .updateTable('team_domains')
      .set({ connection_id: id, require_sso: 0 })
      .where('team_id', '=', teamId)
      .where('domain', '=', domain)
      .where('connection_id', 'is', null)
      .execute();
  } else {
    await trx.updateTable('team_connections').set(details).where('id', '=', id).execute();
  }
  return made;
}

/**
 * Seed the demo data. Idempotent: rows that exist are left alone (including users' changed passwords),
 * so it runs on every start of the demo. With the stand-in SAML provider (demo mode), also the
 * connection to it.
 */
export async function seedDemo(
  db: Kysely<Database>,
  hasher: PasswordHasher,
  clock: Clock,
  samlProvider: DemoSamlProvider | null = null,
): Promise<number> {
  const now = clock.now();
  let inserted = 0;

  for (const team of DEMO_TEAMS) {
    const result = await db
      .insertInto('teams')
      .values({
        id: randomUUID(),
        name: team.name,
        display_name: team.display_name,
        disabled: team.disabled ? 1 : 0,
        local_enabled: team.local ? 1 : 0,
        google_enabled: team.google ? 1 : 0,
        azure_enabled: team.azure ? 1 : 0,
        auth0_enabled: team.auth0 ? 1 : 0,
        auth0_display_name: team.auth0 ?? null,
        brand: null,
        created_at: now,
        ...adminSettings(team),
      })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
    // A demo database made before teams had these settings gets them once (its manager is still unset).
    if (team.manager) {
      await db
        .updateTable('teams')
        .set(adminSettings(team))
        .where('name', '=', team.name)
        .where('manager_name', 'is', null)
        .execute();
    }
  }

  const teams = new Map(
    (await db.selectFrom('teams').select(['id', 'name']).execute()).map((t) => [t.name, t.id]),
  );
  const missing: Array<{ user: UserSeed; teamId: string }> = [];
  for (const user of DEMO_USERS) {
    const teamId = teams.get(user.team)!;
    const existing = await db
      .selectFrom('users')
      .select('id')
      .where('team_id', '=', teamId)
      .where('email', '=', user.email)
      .executeTakeFirst();
    if (!existing) missing.push({ user, teamId });
  }
  // Hash the missing users' passwords in parallel (the hasher bounds the concurrency).
  const hashes = await Promise.all(
    missing.map(({ user }) => (user.password ? hasher.hash(DEMO_PASSWORD) : Promise.resolve(null))),
  );

  await db.transaction().execute(async (trx) => {
    for (const [index, { user, teamId }] of missing.entries()) {
      const id = randomUUID();
      await trx
        .insertInto('users')
        .values({
          id,
          team_id: teamId,
          email: user.email,
          name: user.name,
          name_key: sortKey(user.name),
          password_hash: hashes[index] ?? null,
          password_changed_at: hashes[index] ? now : null,
          locked: user.locked ? 1 : 0,
          language: null,
          created_at: now,
        })
        .execute();
      for (const permission of user.permissions) {
        await trx.insertInto('user_permissions').values({ user_id: id, permission }).execute();
      }
      for (const { term, shadow } of memberTerms(user.name, user.email)) {
        await trx.insertInto('member_terms').values({ team_id: teamId, term, user_id: id, shadow }).execute();
      }
      for (const link of user.external ?? []) {
        await trx
          .insertInto('external_accounts')
          .values({
            id: randomUUID(),
            user_id: id,
            team_id: teamId,
            provider: link.provider,
            subject: link.subject,
            user_name: user.email,
            created_at: now,
          })
          .execute();
      }
      inserted++;
    }
    for (const { team, kind, tenant } of DEMO_PROVIDERS) {
      const client = demoClient(kind);
      const result = await trx
        .insertInto('team_providers')
        .values({
          team_id: teams.get(team)!,
          kind,
          issuer: `demo:${kind}`,
          client_id: client.id,
          client_secret: client.secret,
          allowed_tenant: tenant ?? null,
          allowed_domain: null,
          link_by_email: 1,
        })
        .onConflict((oc) => oc.columns(['team_id', 'kind']).doNothing())
        .executeTakeFirst();
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    const client = await trx
      .insertInto('team_apps')
      .values(
        machineAppRow(
          {
            client_id: DEMO_API_CLIENT.id,
            team_id: teams.get(DEMO_API_CLIENT.team)!,
            name: DEMO_API_CLIENT.name,
            secret_hash: sha256(DEMO_API_CLIENT.secret),
            scopes: DEMO_API_CLIENT.scopes,
          },
          now,
        ),
      )
      .onConflict((oc) => oc.column('client_id').doNothing())
      .executeTakeFirst();
    inserted += Number(client.numInsertedOrUpdatedRows ?? 0n);
    for (const { team, domain, token } of DEMO_DOMAINS) {
      const result = await trx
        .insertInto('team_domains')
        .values({
          domain,
          team_id: teams.get(team)!,
          token,
          state: 'verified',
          created_at: now,
          verified_at: now,
          checked_at: now,
          last_problem: null,
          missing_since: null,
          connection_id: null,
          require_sso: 0,
          auto_join: 0,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    for (const { team, name } of DEMO_GROUPS) {
      const result = await trx
        .insertInto('groups')
        .values({ id: randomUUID(), team_id: teams.get(team)!, name, name_key: fold(name), created_at: now })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    if (samlProvider)
      inserted += await seedSamlConnection(trx, teams.get(DEMO_SAML_CONNECTION.team)!, samlProvider, now);
    for (const [order, policy] of DEMO_POLICIES.entries()) {
      const result = await trx
        .insertInto('policies')
        .values({
          name: policy.name,
          description: policy.description,
          internal: policy.internal ? 1 : 0,
          permissions: policy.permissions.join(','),
          sort_order: order,
        })
        .onConflict((oc) => oc.column('name').doNothing())
        .executeTakeFirst();
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
  });
  return inserted;
}
