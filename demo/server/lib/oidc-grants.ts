import type Provider from 'oidc-provider';
import type { Client } from 'oidc-provider';
import type { Repositories } from '../db/repositories';
import type { AppScope } from '../../../src/contract/schemas/apps';

/** A user's grant to an app as the connected apps screen and the remembered consent read it. */
export interface UserGrant {
  id: string;
  clientId: string;
  /** The OpenID scopes granted (`openid profile email offline_access`, split). */
  scopes: string[];
  /** When the app last used it (ms), if known. */
  usedAt: number | null;
}

/** The user's live grants (oidc-provider's `Grant` payloads), the most recently used first. */
export async function userGrants(repos: Repositories, accountId: string, now: number): Promise<UserGrant[]> {
  const rows = await repos.oidcModels.grantsOf(accountId, now);
  return rows.flatMap((row) => {
    const payload = JSON.parse(row.payload) as { clientId?: unknown; openid?: { scope?: unknown } };
    if (typeof payload.clientId !== 'string') return [];
    const scope = typeof payload.openid?.scope === 'string' ? payload.openid.scope : '';
    return [
      {
        id: row.id,
        clientId: payload.clientId,
        scopes: scope.split(' ').filter(Boolean),
        usedAt: row.usedAt,
      },
    ];
  });
}

/** The provider's client of that id: the configuration's, else a team's own app (lib/team-apps.ts). */
export const findClient = (provider: Provider, clientId: string): Promise<Client | undefined> =>
  provider.Client.find(clientId);

/** The client's extra metadata (`team`, `third_party`: config.ts, lib/team-apps.ts). */
const extra = (client: Client | undefined) => client as { team?: unknown; third_party?: unknown } | undefined;

/** Whether the app asks for consent (`third_party` in its metadata). */
export const isThirdParty = (client: Client | undefined) => extra(client)?.third_party === true;

/** The team whose members alone sign in to the app (`team` in its metadata), if any. */
export const appTeam = (client: Client | undefined) => {
  const team = extra(client)?.team;
  return typeof team === 'string' ? team : null;
};

/** The app's name as the user reads it: its `client_name`, else its client id. */
export const appName = (client: Client | undefined, clientId: string) => client?.clientName ?? clientId;

/** The scopes the screens name (not `openid`, which only says who the user is), in a fixed order. */
export const appScopes = (scopes: readonly string[]): AppScope[] =>
  APP_SCOPES.filter((scope) => scopes.includes(scope));
const APP_SCOPES: readonly AppScope[] = ['profile', 'email', 'offline_access'];

/**
 * Grant the app the scopes asked for, on the grant the request goes on with when it is the user's own
 * to this app, else on a new one; the grant's id for the interaction's result.
 */
export async function grantScopes(
  provider: Provider,
  /** The server's API (openid-provider.ts `apiResource`), the one resource the scopes are for. */
  resource: string,
  request: { grantId?: string | undefined; accountId: string; clientId: string; scope: string },
): Promise<string> {
  const { accountId, clientId, scope } = request;
  const found = request.grantId ? await provider.Grant.find(request.grantId) : undefined;
  // A grant of another user (the portal was signed in as someone else since) is not reused.
  const grant =
    found?.accountId === accountId && found.clientId === clientId
      ? found
      : new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(scope);
  grant.addResourceScope(resource, scope);
  return grant.save();
}
