import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SIGNING_ALG } from '../lib/keys';
import { OIDC_PREFIX, OIDC_ROUTES, OIDC_SCOPES, PROVIDER_GRANTS } from '../lib/openid-provider';
import { discoverySchema, healthSchema, jwksSchema } from '../../../src/contract/schemas/discovery';

/**
 * OpenID discovery, the public signing keys, and liveness. The issuer's discovery lists the OpenID
 * Provider's endpoints (mounted under OIDC_PREFIX, routes/oidc.ts) beside the server's own: one token
 * endpoint for every grant, the server's userinfo and JWKS (the same keys sign both).
 */
export const discoveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config, keys, repos } = app.services;
  const base = config.publicUrl;
  const provider = (path: string) => `${base}${OIDC_PREFIX}${path}`;

  app.get('/healthz', { config: { auth: 'none' }, schema: healthSchema }, async () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/.well-known/openid-configuration',
    { config: { auth: 'none' }, schema: discoverySchema },
    async (_request, reply) => {
      const policies = await repos.policies.publicNames();
      reply.header('Cache-Control', 'public, max-age=300');
      return {
        issuer: base,
        authorization_endpoint: provider(OIDC_ROUTES.authorization),
        userinfo_endpoint: `${base}/connect/userinfo`,
        token_endpoint: `${base}/connect/token`,
        jwks_uri: `${base}/.well-known/jwks`,
        device_authorization_endpoint: provider(OIDC_ROUTES.deviceAuthorization),
        end_session_endpoint: provider(OIDC_ROUTES.endSession),
        revocation_endpoint: provider(OIDC_ROUTES.revocation),
        introspection_endpoint: provider(OIDC_ROUTES.introspection),
        grant_types_supported: [
          'device_code',
          'urn:ietf:params:oauth:grant-type:device_code',
          'client_credentials',
          ...PROVIDER_GRANTS,
        ],
        scopes_supported: [...new Set([...OIDC_SCOPES, ...policies])],
        // The provider answers the code flow only (no tokens in the address): as its own discovery says.
        response_types_supported: ['code'],
        response_modes_supported: ['query', 'form_post'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        // Logout tokens with `sid` when a portal session ends (lib/app-logout.ts).
        backchannel_logout_supported: true,
        backchannel_logout_session_supported: true,
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: [SIGNING_ALG],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
        claims_supported: [
          'sub',
          'name',
          'email',
          'created_at',
          'team',
          'team_id',
          'groups',
          'amr',
          'auth_time',
          'sid',
        ],
      };
    },
  );

  app.get('/.well-known/jwks', { config: { auth: 'none' }, schema: jwksSchema }, async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return { keys: keys.published() };
  });
};
