import type { ClientMetadata } from 'oidc-provider';
import type { TeamAppRow } from '../db/team-apps';
import { randomToken, safeEqual, sha256 } from './crypto';

/** RFC 8628's grant type, as clients send it. */
export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** What a new machine app may ask for: the API scopes there are (today the storage report). */
export const MACHINE_SCOPES = 'team.storage';

/** A new secret (256 random bits) and what is stored of it. */
export function newSecret(): { secret: string; hash: string } {
  const secret = randomToken(32);
  return { secret, hash: sha256(secret) };
}

/** A new client id: a prefix that says what it is, and 128 random bits. */
export const newClientId = () => `app-${randomToken(16)}`;

/**
 * Whether the secret an app presents is the one whose hash is stored (the provider's metadata carries
 * the hash, docs/decisions/team-app-secrets.md): the stored hash itself, presented, does not match.
 */
export const matchesHashedSecret = (storedHash: string, presented: string) =>
  safeEqual(storedHash, sha256(presented));

/**
 * The app as the OpenID Provider's client (RFC 7591 metadata): what it may do follows its kind. A
 * machine app is not the provider's (its client credentials grant is the server's own, routes/token.ts)
 * and a disabled app is nobody's: undefined for both. `team` makes it the team's own app (only its
 * members sign in); `third_party` asks for consent; `secret_hashed` tells the provider's secret check
 * that `client_secret` is the SHA-256 of the secret (lib/openid-provider.ts).
 */
export function teamAppMetadata(app: TeamAppRow): ClientMetadata | undefined {
  if (app.disabled === 1 || app.kind === 'machine') return undefined;
  const redirectUris = JSON.parse(app.redirect_uris) as string[];
  const postLogout = JSON.parse(app.post_logout_redirect_uris) as string[];
  const common: ClientMetadata = {
    client_id: app.client_id,
    client_name: app.name,
    team: app.team_name,
    third_party: app.third_party === 1,
    post_logout_redirect_uris: postLogout,
    ...(app.backchannel_logout_uri ? { backchannel_logout_uri: app.backchannel_logout_uri } : {}),
  };
  const codeFlow: ClientMetadata = {
    client_id: app.client_id,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: redirectUris,
  };
  switch (app.kind) {
    case 'web':
      return {
        ...common,
        ...codeFlow,
        application_type: 'web',
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret: app.secret_hash ?? undefined,
        secret_hashed: true,
      };
    case 'spa':
      return { ...common, ...codeFlow, application_type: 'web', token_endpoint_auth_method: 'none' };
    case 'native':
      return { ...common, ...codeFlow, application_type: 'native', token_endpoint_auth_method: 'none' };
    case 'device':
      return {
        ...common,
        grant_types: [DEVICE_GRANT, 'refresh_token'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'none',
      };
  }
}
