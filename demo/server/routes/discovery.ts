import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SIGNING_ALG } from '../lib/keys';
import { discoverySchema, healthSchema, jwksSchema } from '../schemas/discovery';

/** OpenID discovery, the public signing keys, and liveness. */
export const discoveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config, keys, repos } = app.services;
  const base = config.publicUrl;

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
        userinfo_endpoint: `${base}/connect/userinfo`,
        token_endpoint: `${base}/connect/token`,
        jwks_uri: `${base}/.well-known/jwks`,
        device_authorization_endpoint: `${base}/api/DeviceCode/generate`,
        grant_types_supported: [
          'device_code',
          'urn:ietf:params:oauth:grant-type:device_code',
          'client_credentials',
        ],
        scopes_supported: ['openid', 'profile', 'email', ...policies],
        response_types_supported: ['token'],
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
        ],
      };
    },
  );

  app.get('/.well-known/jwks', { config: { auth: 'none' }, schema: jwksSchema }, async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return { keys: keys.published() };
  });
};
