import { Type, type Static } from 'typebox';
import {
  CONNECTION_PRESETS,
  CONNECTION_PROTOCOLS,
  METADATA_MAX_BYTES,
  OIDC_PROBLEMS,
  SAML_PROBLEMS,
} from '../connections';
import { LIMITS } from '../limits';
import { PERMISSIONS } from '../permissions';
import { TicketQuery } from './external';
import { Permission } from './team';
import { errors, NoBody, type RouteSchema } from './common';

const closed = { additionalProperties: false } as const;
const DateTime = Type.String({ format: 'date-time' });
const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** The longest URL or entity ID a connection takes. */
export const CONNECTION_URL_LENGTH = 2000;
/** The longest certificate (PEM or base64) and how many a connection holds (one, and the next). */
export const CERTIFICATE_LENGTH = 20_000;
export const CERTIFICATES_MAX = 3;
const ATTRIBUTE_LENGTH = 300;

/** A certificate the provider signs with, as the screen shows it. */
export const ConnectionCertificate = Type.Object(
  {
    subject: Type.String(),
    notBefore: DateTime,
    notAfter: DateTime,
    /** SHA-256, in hex pairs. */
    fingerprint: Type.String(),
    /** The certificate itself (public), for the screen's form to show and keep. */
    pem: Type.String(),
  },
  closed,
);

const Attribute = Type.String({ minLength: 1, maxLength: ATTRIBUTE_LENGTH });
/** Where each claim is in the provider's answer (`nameId`: the subject's NameID). */
export const ConnectionMapping = Type.Object(
  {
    email: Attribute,
    id: Attribute,
    givenName: orNull(Attribute),
    familyName: orNull(Attribute),
    groups: orNull(Attribute),
  },
  closed,
);

/** What a test sign-in received: the claims as mapped, and every attribute. */
export const ConnectionClaims = Type.Object(
  {
    email: Type.String(),
    id: Type.String(),
    givenName: orNull(Type.String()),
    familyName: orNull(Type.String()),
    groups: Type.Array(Type.String()),
    attributes: Type.Record(Type.String(), Type.Array(Type.String())),
  },
  closed,
);

/** The last test sign-in: passed with the claims, or refused with why. */
export const ConnectionTest = Type.Object(
  {
    at: DateTime,
    ok: Type.Boolean(),
    problem: orNull(Type.Enum([...SAML_PROBLEMS, ...OIDC_PROBLEMS])),
    detail: orNull(Type.String()),
    claims: orNull(ConnectionClaims),
  },
  closed,
);
export type ConnectionTest = Static<typeof ConnectionTest>;

/** A team's connection as its admins see it, with this site's values to give the provider. */
export const TeamConnection = Type.Object(
  {
    id: Type.String(),
    protocol: Type.Enum([...CONNECTION_PROTOCOLS]),
    preset: Type.Enum([...CONNECTION_PRESETS]),
    name: Type.String(),
    idpEntityId: orNull(Type.String()),
    ssoUrl: orNull(Type.String()),
    certificates: Type.Array(ConnectionCertificate),
    /** The provider's metadata address the details were last taken from, for a refresh; null if typed. */
    metadataUrl: orNull(Type.String()),
    /** OpenID Connect: the provider's issuer and this site's client id there; the secret is never shown. */
    issuer: orNull(Type.String()),
    clientId: orNull(Type.String()),
    hasClientSecret: Type.Boolean(),
    mapping: ConnectionMapping,
    enabled: Type.Boolean(),
    idpInitiated: Type.Boolean(),
    defaultPermissions: Type.Array(Permission),
    /** When a test sign-in last passed since the provider's details last changed. */
    testedAt: orNull(DateTime),
    lastTest: orNull(ConnectionTest),
    createdAt: DateTime,
    /** SAML: the entity ID, ACS URL and metadata URL; OpenID Connect: the redirect URI. */
    serviceProvider: Type.Object(
      {
        entityId: Type.String(),
        acsUrl: Type.String(),
        metadataUrl: Type.String(),
        redirectUri: Type.String(),
      },
      closed,
    ),
  },
  closed,
);
export type TeamConnection = Static<typeof TeamConnection>;

export const TeamConnectionList = Type.Object({ connections: Type.Array(TeamConnection) }, closed);
export type TeamConnectionList = Static<typeof TeamConnectionList>;

const Url = Type.String({ minLength: 1, maxLength: CONNECTION_URL_LENGTH });
/** An OpenID Connect client id or secret, as the provider's console shows it. */
const ClientField = Type.String({ minLength: 1, maxLength: 1000 });
/** The provider's SAML metadata as pasted; a longer text is refused as `tooLarge` at its field. */
const MetadataXml = Type.String({ maxLength: METADATA_MAX_BYTES });
const Certificates = Type.Array(Type.String({ minLength: 1, maxLength: CERTIFICATE_LENGTH }), {
  minItems: 1,
  maxItems: CERTIFICATES_MAX,
});

/**
 * `POST /api/team/connections`: a SAML connection, and the provider's details when they are known —
 * its entity ID, its single sign-on URL and the certificates it signs with (PEM, or the bare base64
 * consoles show), or instead its SAML metadata: the address the server fetches it from
 * (`metadataUrl`, kept for a refresh) or the document itself (`metadataXml`), one of them and never
 * with the typed details. A provider usually asks for this site's values first: the details can come
 * later.
 */
export const TeamConnectionBody = Type.Object(
  {
    preset: Type.Enum(['okta', 'entra', 'google', 'saml', 'oidc']),
    name: Type.String({ maxLength: LIMITS.nameInput }),
    issuer: Type.Optional(Url),
    clientId: Type.Optional(ClientField),
    clientSecret: Type.Optional(ClientField),
    idpEntityId: Type.Optional(Url),
    ssoUrl: Type.Optional(Url),
    certificates: Type.Optional(Certificates),
    metadataUrl: Type.Optional(Url),
    metadataXml: Type.Optional(MetadataXml),
  },
  closed,
);
export type TeamConnectionBody = Static<typeof TeamConnectionBody>;

/**
 * `PATCH /api/team/connections/:id`: what changes. A new entity ID, sign-on URL or mapping turns the
 * connection off until a test passes again; certificates change without that (rotation). The
 * provider's details may come from its metadata as when adding: the kept `metadataUrl` sent again
 * refreshes them; typed details or pasted metadata forget the address.
 */
export const TeamConnectionPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: LIMITS.nameInput })),
    /** Accept answers the provider sends unasked (a sign-in started from its own app list). */
    idpInitiated: Type.Optional(Type.Boolean()),
    /** What a member made by their first sign-in through it gets. */
    defaultPermissions: Type.Optional(Type.Array(Permission, { maxItems: PERMISSIONS.length })),
    issuer: Type.Optional(Url),
    clientId: Type.Optional(ClientField),
    clientSecret: Type.Optional(ClientField),
    idpEntityId: Type.Optional(Url),
    ssoUrl: Type.Optional(Url),
    certificates: Type.Optional(Certificates),
    metadataUrl: Type.Optional(Url),
    metadataXml: Type.Optional(MetadataXml),
    mapping: Type.Optional(ConnectionMapping),
    enabled: Type.Optional(Type.Boolean()),
  },
  closed,
);
export type TeamConnectionPatch = Static<typeof TeamConnectionPatch>;

const ConnectionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, closed);

export const listTeamConnectionsSchema = {
  response: { 200: TeamConnectionList, ...errors(400, 401, 403, 500) },
} satisfies RouteSchema;

/**
 * 400 `invalidName`, `invalidUrl` or `insecureUri` (`ssoUrl`: https, or http to this machine),
 * `invalidCertificate` (its `field`: `certificates.1`), each at its field; from metadata, a
 * `METADATA_PROBLEMS` code at `metadataUrl` or `metadataXml`, and `mixedDetails` there when it came
 * with the other way of giving the details.
 */
export const addTeamConnectionSchema = {
  body: TeamConnectionBody,
  response: { 201: TeamConnection, ...errors(400, 401, 403, 413, 415, 500) },
} satisfies RouteSchema;

/** The same refusals as adding; 409 `notTested` when turned on before a test passed. */
export const changeTeamConnectionSchema = {
  params: ConnectionParams,
  body: TeamConnectionPatch,
  response: { 200: TeamConnection, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
} satisfies RouteSchema;

export const deleteTeamConnectionSchema = {
  params: ConnectionParams,
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/**
 * Where to open the test sign-in (a new tab): the provider's sign-in page, with this site's request.
 * 409 `incomplete` while the provider's details are not all there.
 */
export const testTeamConnectionSchema = {
  params: ConnectionParams,
  response: {
    200: Type.Object({ url: Type.String() }, closed),
    ...errors(400, 401, 403, 404, 409, 413, 415, 500),
  },
} satisfies RouteSchema;

/**
 * `POST /account/sso/start` (JSON, under the anti-forgery rule), step one of signing in through the
 * team's single sign-on: the address that starts it (a navigation, as for a provider). 404
 * `noConnection` when the address's domain does not sign in through one.
 */
export const SsoStartBody = Type.Object(
  {
    teamName: Type.String({ minLength: 1, maxLength: LIMITS.teamName }),
    email: Type.String({ minLength: 3, maxLength: LIMITS.email }),
    returnUrl: Type.Optional(Type.String({ maxLength: 2000 })),
    maxAge: Type.Optional(Type.String({ maxLength: 12 })),
  },
  closed,
);
export type SsoStartBody = Static<typeof SsoStartBody>;
export const ssoStartSchema = {
  body: SsoStartBody,
  response: {
    200: Type.Object({ location: Type.String() }, closed),
    ...errors(400, 403, 404, 413, 415, 500),
  },
} satisfies RouteSchema;

/**
 * `GET /account/sso/team?domain=…`: the team whose verified domain it is, when its addresses sign in
 * through the team's single sign-on — so the team step can take a work e-mail instead of a team name.
 * 404 `noTeam` otherwise.
 */
export const ssoTeamSchema = {
  querystring: Type.Object({ domain: Type.String({ minLength: 1, maxLength: LIMITS.email }) }, closed),
  response: { 200: Type.Object({ name: Type.String() }, closed), ...errors(400, 404, 500) },
} satisfies RouteSchema;

/** `GET /account/sso/begin?ticket=…`, step two: 303 to the provider, or back to the sign-in screen. */
export const ssoBeginSchema = {
  querystring: TicketQuery,
  response: { 303: NoBody, ...errors(400, 500) },
} satisfies RouteSchema;

/**
 * `GET /sso/callback`: an OpenID Connect provider's answer (its parameters, which providers may add
 * to). 303 to the Single sign-on screen (a test), to where the sign-in goes, or back to sign-in.
 */
export const oidcCallbackSchema = {
  querystring: Type.Object(
    {
      code: Type.Optional(Type.String({ maxLength: 4096 })),
      state: Type.Optional(Type.String({ maxLength: 512 })),
      error: Type.Optional(Type.String({ maxLength: 512 })),
      error_description: Type.Optional(Type.String({ maxLength: 2000 })),
    },
    { additionalProperties: true },
  ),
  response: { 303: NoBody, ...errors(400, 500) },
} satisfies RouteSchema;

const SamlParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, closed);

/**
 * `POST /saml/:id/acs`: the provider's answer (HTTP-POST binding, a cross-site form post). 303 to the
 * Single sign-on screen (a test), to where the sign-in goes, or back to the sign-in screen.
 */
export const samlAnswerSchema = {
  params: SamlParams,
  body: Type.Object(
    {
      SAMLResponse: Type.String({ minLength: 1, maxLength: 500_000 }),
      RelayState: Type.Optional(Type.String({ maxLength: 200 })),
    },
    closed,
  ),
  response: { 303: NoBody, ...errors(400, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/** `GET /saml/:id/metadata`: this site as the connection's service provider (public). */
export const samlMetadataSchema = {
  params: SamlParams,
  response: { 200: Type.String(), ...errors(400, 404, 500) },
} satisfies RouteSchema;
