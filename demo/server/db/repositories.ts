import type { Db } from './connect';
import { accountsRepository, activityRepository, emailChangesRepository } from './activity';
import { auditRepository } from './audit';
import { connectionsRepository } from './connections';
import { deviceCodesRepository } from './device-codes';
import { directoriesRepository } from './directories';
import { domainsRepository } from './domains';
import { emailCodesRepository } from './email-codes';
import { eventStreamsRepository } from './event-streams';
import { groupsRepository } from './groups';
import { identitiesRepository } from './identities';
import { invitationsRepository } from './invitations';
import { joinRequestsRepository } from './join-requests';
import { loginFailuresRepository } from './login-failures';
import { membersRepository } from './members';
import { oauthFlowsRepository } from './oauth-flows';
import { oidcModelsRepository } from './oidc-models';
import { passkeysRepository } from './passkeys';
import { usedChallengesRepository } from './used-challenges';
import { passwordResetsRepository } from './password-resets';
import { policiesRepository } from './policies';
import { rateLimitsRepository } from './rate-limits';
import { scimRepository } from './scim';
import { sessionsRepository } from './sessions';
import { setupLinksRepository } from './setup-links';
import { ssoMembersRepository } from './sso-members';
import { teamAppsRepository } from './team-apps';
import { signingKeysRepository } from './signing-keys';
import { teamsRepository } from './teams';
import { twoStepRepository } from './two-step';
import { usersRepository } from './users';

/**
 * Every query of the server, by what it is about: routes and the services in lib/ call these
 * (`app.services.repos`) and never build a query themselves (test/static/server-layers.test.ts).
 */
export function createRepositories(db: Db) {
  const { kysely } = db;
  return {
    users: usersRepository(kysely),
    teams: teamsRepository(kysely, db.dialect),
    sessions: sessionsRepository(kysely),
    identities: identitiesRepository(kysely, db.dialect),
    oauthFlows: oauthFlowsRepository(kysely),
    passwordResets: passwordResetsRepository(kysely),
    emailCodes: emailCodesRepository(kysely),
    deviceCodes: deviceCodesRepository(kysely),
    policies: policiesRepository(kysely),
    loginFailures: loginFailuresRepository(kysely),
    rateLimits: rateLimitsRepository(kysely),
    usedChallenges: usedChallengesRepository(kysely),
    members: membersRepository(kysely, db.dialect),
    invitations: invitationsRepository(kysely, db.dialect),
    joinRequests: joinRequestsRepository(kysely, db.dialect),
    groups: groupsRepository(kysely),
    audit: auditRepository(kysely),
    teamApps: teamAppsRepository(kysely),
    domains: domainsRepository(kysely),
    connections: connectionsRepository(kysely),
    setupLinks: setupLinksRepository(kysely),
    ssoMembers: ssoMembersRepository(kysely, db.dialect),
    twoStep: twoStepRepository(kysely),
    passkeys: passkeysRepository(kysely, db.dialect),
    signingKeys: signingKeysRepository(kysely),
    activity: activityRepository(kysely),
    emailChanges: emailChangesRepository(kysely),
    accounts: accountsRepository(kysely, db.dialect),
    oidcModels: oidcModelsRepository(kysely),
    directories: directoriesRepository(kysely),
    scim: scimRepository(kysely, db.dialect),
    eventStreams: eventStreamsRepository(kysely, db.dialect),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
