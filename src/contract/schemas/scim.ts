import { Type, type Static } from 'typebox';
import { NoBody, type RouteSchema } from './common';

/** The SCIM 2.0 message and resource URNs (RFC 7643, RFC 7644) the server answers with. */
export const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

const closed = { additionalProperties: false } as const;

/** RFC 7644 §3.12's detail keywords. */
export const SCIM_TYPES = [
  'uniqueness',
  'tooMany',
  'invalidFilter',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'invalidVers',
  'sensitive',
] as const;
export type ScimScimType = (typeof SCIM_TYPES)[number];

/** Every refusal of a SCIM route: the status as a string, and for a 400 or 409 its `scimType`. */
export const ScimErrorBody = Type.Object(
  {
    schemas: Type.Array(Type.Literal(SCIM_ERROR)),
    status: Type.String(),
    scimType: Type.Optional(Type.Enum([...SCIM_TYPES])),
    detail: Type.Optional(Type.String()),
  },
  closed,
);
export type ScimErrorBody = Static<typeof ScimErrorBody>;

const Meta = (resourceType: 'User' | 'Group') =>
  Type.Object(
    {
      resourceType: Type.Literal(resourceType),
      created: Type.String({ format: 'date-time' }),
      lastModified: Type.String({ format: 'date-time' }),
      location: Type.String(),
    },
    closed,
  );

/** A team member as a directory sees them: `userName` is the address they sign in with. */
export const ScimUser = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    id: Type.String(),
    externalId: Type.Optional(Type.String()),
    userName: Type.String(),
    name: Type.Object(
      {
        formatted: Type.String(),
        givenName: Type.Optional(Type.String()),
        familyName: Type.Optional(Type.String()),
      },
      closed,
    ),
    displayName: Type.String(),
    emails: Type.Array(
      Type.Object({ value: Type.String(), type: Type.Literal('work'), primary: Type.Boolean() }, closed),
    ),
    active: Type.Boolean(),
    meta: Meta('User'),
  },
  closed,
);
export type ScimUser = Static<typeof ScimUser>;

/** A team group; `members` is left out when asked (`excludedAttributes=members`). */
export const ScimGroup = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    id: Type.String(),
    externalId: Type.Optional(Type.String()),
    displayName: Type.String(),
    members: Type.Optional(
      Type.Array(
        Type.Object(
          { value: Type.String(), display: Type.String(), type: Type.Literal('User'), $ref: Type.String() },
          closed,
        ),
      ),
    ),
    meta: Meta('Group'),
  },
  closed,
);
export type ScimGroup = Static<typeof ScimGroup>;

const ListOf = <T extends typeof ScimUser | typeof ScimGroup>(resource: T) =>
  Type.Object(
    {
      schemas: Type.Array(Type.Literal(SCIM_LIST)),
      totalResults: Type.Integer(),
      startIndex: Type.Integer(),
      itemsPerPage: Type.Integer(),
      Resources: Type.Array(resource),
    },
    closed,
  );

/**
 * A SCIM request body (a resource or a PatchOp message): open-ended by RFC 7643 (extensions, clients'
 * own attributes), so it is checked by scimmy against the SCIM schemas in the handler, not here.
 */
const ScimBody = Type.Object(
  { schemas: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20 })) },
  { additionalProperties: true, description: 'a SCIM resource or PatchOp message, read by scimmy' },
);

/**
 * The discovery answers (RFC 7644 §4), made by scimmy from its schema definitions — attributes within
 * attributes, to any depth — and sent as the JSON text it made.
 */
const ScimDiscovery = Type.String({ description: 'ServiceProviderConfig, Schemas or ResourceTypes JSON' });

const Text = Type.String({ maxLength: 1000 });
const ScimQuery = Type.Object(
  {
    filter: Type.Optional(Text),
    startIndex: Type.Optional(Type.String({ maxLength: 12 })),
    count: Type.Optional(Type.String({ maxLength: 12 })),
    attributes: Type.Optional(Text),
    excludedAttributes: Type.Optional(Text),
    sortBy: Type.Optional(Text),
    sortOrder: Type.Optional(Text),
  },
  closed,
);
const ResourceQuery = Type.Object(
  { attributes: Type.Optional(Text), excludedAttributes: Type.Optional(Text) },
  closed,
);
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }, closed);

/** What SCIM routes may answer besides their success: every status as a SCIM error body. */
const scimErrors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ScimErrorBody])) as Record<
    number,
    typeof ScimErrorBody
  >;
const READ_ERRORS = scimErrors(400, 401, 403, 404, 500);
const WRITE_ERRORS = scimErrors(400, 401, 403, 404, 409, 413, 415, 500);

export const scimDiscoverySchema = {
  response: { 200: ScimDiscovery, ...READ_ERRORS },
} satisfies RouteSchema;
export const scimDiscoveryOneSchema = {
  params: IdParams,
  response: { 200: ScimDiscovery, ...READ_ERRORS },
} satisfies RouteSchema;

export const scimListUsersSchema = {
  querystring: ScimQuery,
  response: { 200: ListOf(ScimUser), ...READ_ERRORS },
} satisfies RouteSchema;
export const scimGetUserSchema = {
  params: IdParams,
  querystring: ResourceQuery,
  response: { 200: ScimUser, ...READ_ERRORS },
} satisfies RouteSchema;
export const scimCreateUserSchema = {
  body: ScimBody,
  response: { 201: ScimUser, ...WRITE_ERRORS },
} satisfies RouteSchema;
export const scimChangeUserSchema = {
  params: IdParams,
  body: ScimBody,
  response: { 200: ScimUser, ...WRITE_ERRORS },
} satisfies RouteSchema;

export const scimListGroupsSchema = {
  querystring: ScimQuery,
  response: { 200: ListOf(ScimGroup), ...READ_ERRORS },
} satisfies RouteSchema;
export const scimGetGroupSchema = {
  params: IdParams,
  querystring: ResourceQuery,
  response: { 200: ScimGroup, ...READ_ERRORS },
} satisfies RouteSchema;
export const scimCreateGroupSchema = {
  body: ScimBody,
  response: { 201: ScimGroup, ...WRITE_ERRORS },
} satisfies RouteSchema;
export const scimChangeGroupSchema = {
  params: IdParams,
  querystring: ResourceQuery,
  body: ScimBody,
  response: { 200: ScimGroup, 204: NoBody, ...WRITE_ERRORS },
} satisfies RouteSchema;

/** DELETE /Users/:id, /Groups/:id: 204. */
export const scimDeleteSchema = {
  params: IdParams,
  response: { 204: NoBody, ...WRITE_ERRORS },
} satisfies RouteSchema;
