import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appName, appScopes, findClient, grantScopes, isThirdParty, userGrants } from '../lib/oidc-grants';
import { recordActivity } from '../lib/activity';
import { apiResource } from '../lib/openid-provider';
import { callerOf } from '../plugins/auth';
import {
  connectedAppsSchema,
  consentAnswerSchema,
  consentDetailsSchema,
  removeAppSchema,
  type ConnectedApp,
} from '../../../src/contract/schemas/apps';

const notFound = { message: 'no such question', code: 'notFound' } as const;
const appToken = { message: 'a third-party app’s token cannot do this', code: 'forbidden' } as const;

/**
 * A third-party app's consent, answered on the portal's consent screen, and the user's connected apps
 * (bearer routes; the user always from the token). docs/decisions/oidc-consent.md.
 *
 * The consent question is the provider's interaction at its consent prompt, found by its id: only the
 * user it belongs to (the provider's session signed in with them) sees or answers it; for anyone else,
 * as for an expired or answered one, it does not exist. The answer is saved as the provider's own
 * `interactionResult` saves it, and the browser goes on to the provider's resume address, which its
 * resume cookie opens: allowed, the grant (kept, so the app does not ask again); denied, `access_denied`
 * to the app.
 */
export const appRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config, repos, clock } = app.services;
  const clientOf = (clientId: string) => findClient(app.oidc.current(), clientId);

  /**
   * The caller, unless the token is one the provider issued to a third-party app (the provider's access
   * tokens are accepted on bearer routes): such an app must not answer its own consent question nor
   * see or remove the user's other apps. Null after answering 403.
   */
  const userOf = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = callerOf(request);
    if (!isThirdParty(await clientOf(caller.claims.client_id))) return caller;
    void reply.code(403).send(appToken);
    return null;
  };

  /** The interaction waiting for this user's consent to a third-party app, if it is one. */
  async function question(uid: string, accountId: string) {
    const interaction = await app.oidc.current().Interaction.find(uid);
    if (!interaction || interaction.result || interaction.prompt.name !== 'consent') return null;
    if (interaction.session?.accountId !== accountId) return null;
    const clientId = String(interaction.params.client_id);
    const client = await clientOf(clientId);
    if (!isThirdParty(client)) return null;
    const scope = typeof interaction.params.scope === 'string' ? interaction.params.scope : 'openid';
    return { interaction, clientId, client, scope };
  }

  app.get(
    '/api/oidc/consent/:uid',
    { config: { auth: 'bearer' }, schema: consentDetailsSchema },
    async (request, reply) => {
      const caller = await userOf(request, reply);
      if (!caller) return reply;
      const found = await question(request.params.uid, caller.user.id);
      if (!found) return reply.code(404).send(notFound);
      const team = await repos.teams.findById(caller.user.team_id);
      return {
        app: appName(found.client, found.clientId),
        team: team?.display_name ?? caller.teamName,
        scopes: appScopes(found.scope.split(' ')),
      };
    },
  );

  app.post(
    '/api/oidc/consent/:uid',
    { config: { auth: 'bearer' }, schema: consentAnswerSchema },
    async (request, reply) => {
      const caller = await userOf(request, reply);
      if (!caller) return reply;
      const found = await question(request.params.uid, caller.user.id);
      if (!found) return reply.code(404).send(notFound);
      const { interaction, clientId, client, scope } = found;
      if (request.body.allow) {
        const grantId = await grantScopes(app.oidc.current(), apiResource(config), {
          grantId: interaction.grantId,
          accountId: caller.user.id,
          clientId,
          scope,
        });
        interaction.result = { ...interaction.lastSubmission, consent: { grantId } };
        // In the user's security log: an app they let in, to remove later if they did not mean it.
        await recordActivity(request, caller.user.id, 'appAllowed', { app: appName(client, clientId) });
      } else {
        interaction.result = { error: 'access_denied', error_description: 'the user did not allow it' };
      }
      await interaction.save(interaction.exp - Math.floor(clock.now() / 1000));
      return { redirectTo: interaction.returnTo };
    },
  );

  app.get(
    '/api/user/apps',
    { config: { auth: 'bearer' }, schema: connectedAppsSchema },
    async (request, reply) => {
      const caller = await userOf(request, reply);
      if (!caller) return reply;
      const grants = await userGrants(repos, caller.user.id, clock.now());
      // One entry per app, however many grants (one per browser session of a first-party app).
      const apps = new Map<string, ConnectedApp>();
      for (const grant of grants) {
        const seen = apps.get(grant.clientId);
        const scopes = appScopes([...(seen?.scopes ?? []), ...grant.scopes]);
        const lastUsedAt = seen?.lastUsedAt ?? (grant.usedAt ? new Date(grant.usedAt).toISOString() : null);
        const client = await clientOf(grant.clientId);
        apps.set(grant.clientId, {
          id: grant.clientId,
          name: appName(client, grant.clientId),
          thirdParty: isThirdParty(client),
          scopes,
          lastUsedAt,
        });
      }
      return { apps: [...apps.values()] };
    },
  );

  app.delete(
    '/api/user/apps/:id',
    { config: { auth: 'bearer' }, schema: removeAppSchema },
    async (request, reply) => {
      const caller = await userOf(request, reply);
      if (!caller) return reply;
      const grants = await userGrants(repos, caller.user.id, clock.now());
      const ids = grants.filter((grant) => grant.clientId === request.params.id).map((grant) => grant.id);
      if (ids.length === 0) return reply.code(404).send({ message: 'no such app', code: 'notFound' });
      await repos.oidcModels.removeGrants(caller.user.id, ids);
      const name = appName(await clientOf(request.params.id), request.params.id);
      await recordActivity(request, caller.user.id, 'appAccessRemoved', { app: name });
      return reply.code(204).send();
    },
  );
};
