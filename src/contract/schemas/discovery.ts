import { Type } from 'typebox';
import { errors, type RouteSchema } from './common';

/** `GET /.well-known/openid-configuration`: the OpenID discovery document. */
export const DiscoveryReply = Type.Object(
  {
    issuer: Type.String(),
    authorization_endpoint: Type.String(),
    userinfo_endpoint: Type.String(),
    token_endpoint: Type.String(),
    jwks_uri: Type.String(),
    device_authorization_endpoint: Type.String(),
    end_session_endpoint: Type.String(),
    revocation_endpoint: Type.String(),
    introspection_endpoint: Type.String(),
    code_challenge_methods_supported: Type.Array(Type.String()),
    authorization_response_iss_parameter_supported: Type.Boolean(),
    backchannel_logout_supported: Type.Boolean(),
    backchannel_logout_session_supported: Type.Boolean(),
    response_modes_supported: Type.Array(Type.String()),
    grant_types_supported: Type.Array(Type.String()),
    scopes_supported: Type.Array(Type.String()),
    response_types_supported: Type.Array(Type.String()),
    subject_types_supported: Type.Array(Type.String()),
    id_token_signing_alg_values_supported: Type.Array(Type.String()),
    token_endpoint_auth_methods_supported: Type.Array(Type.String()),
    claims_supported: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export const discoverySchema = {
  response: { 200: DiscoveryReply, ...errors(400, 500) },
} satisfies RouteSchema;

/**
 * A public signing key: only these members go out, whatever else the key file holds (a private
 * member must never reach this answer).
 */
export const PublicJwk = Type.Object(
  {
    kty: Type.String(),
    crv: Type.String(),
    x: Type.String(),
    kid: Type.String(),
    alg: Type.String(),
    use: Type.String(),
  },
  { additionalProperties: false },
);
/** `GET /.well-known/jwks`. */
export const JwksReply = Type.Object({ keys: Type.Array(PublicJwk) }, { additionalProperties: false });
export const jwksSchema = {
  response: { 200: JwksReply, ...errors(400, 500) },
} satisfies RouteSchema;

/** `GET /healthz`: liveness. */
export const HealthReply = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });
export const healthSchema = {
  response: { 200: HealthReply, ...errors(400, 500) },
} satisfies RouteSchema;
