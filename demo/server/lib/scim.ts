import SCIMMY from 'scimmy';
import type { GroupCondition, ScimGroupRow, ScimUserFields, ScimUserRow, UserCondition } from '../db/scim';
import { cleanName, NAME_MAX } from './names';
import { normaliseEmail } from './normalise';
import { randomToken, sha256 } from './crypto';
import { LIMITS } from '../../../src/contract/limits';
import {
  SCIM_ERROR,
  SCIM_GROUP,
  SCIM_LIST,
  SCIM_USER,
  type ScimErrorBody,
  type ScimGroup,
  type ScimScimType,
  type ScimUser,
} from '../../../src/contract/schemas/scim';

/** What a directory token starts with: recognisable in a leak report or a secret scanner. */
export const DIRECTORY_TOKEN_PREFIX = 'acct_scim_';

/** A new directory token (256 random bits) and what is stored of it. */
export function newDirectoryToken(): { token: string; hash: string } {
  const token = `${DIRECTORY_TOKEN_PREFIX}${randomToken(32)}`;
  return { token, hash: sha256(token) };
}

/** A group a directory names may have a longer name than one an admin makes (Entra ID's limit). */
export const GROUP_NAME_MAX = 256;

/** Where SCIM lives under the server's address. */
export const SCIM_PREFIX = '/scim/v2';

/** The most a list answers at once (ServiceProviderConfig `filter.maxResults`). */
export const SCIM_MAX_RESULTS = 200;
/** A list's page when `count` is not given. */
export const SCIM_DEFAULT_COUNT = 100;

/** A refusal in SCIM's terms (RFC 7644 §3.12): the status, and for a 400 or 409 the `scimType`. */
export class ScimProblem extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: ScimScimType,
  ) {
    super(detail);
  }
}

export const scimError = (status: number, detail: string, scimType?: ScimScimType): ScimErrorBody => ({
  schemas: [SCIM_ERROR],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

/** scimmy's own refusals carry their status and type; anything else it throws is bad input. */
export function asProblem(error: unknown): ScimProblem {
  if (error instanceof ScimProblem) return error;
  if (error instanceof SCIMMY.Types.Error) {
    const type = (error.scimType ?? undefined) as ScimScimType | undefined;
    return new ScimProblem(error.status, error.message, type);
  }
  if (error instanceof TypeError) return new ScimProblem(400, error.message, 'invalidValue');
  throw error;
}

let configuredFor: string | null = null;

/**
 * scimmy's registry is the process's: the discovery answers (ServiceProviderConfig, Schemas,
 * ResourceTypes) are made from it. Set once, with the address they name.
 */
export function configureScimmy(base: string): void {
  if (configuredFor === base) return;
  if (configuredFor === null) {
    SCIMMY.Config.set({
      patch: true,
      filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
      bulk: false,
      changePassword: false,
      sort: false,
      etag: false,
      authenticationSchemes: [
        {
          type: 'oauthbearertoken',
          name: 'Directory token',
          description: "The directory's token from the team's Directory sync page, as a bearer token",
        },
      ],
    });
    // Entra ID maps some of its attributes to the enterprise extension: its paths must resolve, though
    // nothing of it is kept.
    // scimmy's types want an instance here; its code takes the schema class, as its docs show.
    SCIMMY.Schemas.User.extend(SCIMMY.Schemas.EnterpriseUser as unknown as SCIMMY.Types.Schema, false);
    SCIMMY.Resources.declare(SCIMMY.Resources.User);
    SCIMMY.Resources.declare(SCIMMY.Resources.Group);
  }
  for (const resource of [
    SCIMMY.Resources.User,
    SCIMMY.Resources.Group,
    SCIMMY.Resources.Schema,
    SCIMMY.Resources.ResourceType,
    SCIMMY.Resources.ServiceProviderConfig,
  ])
    resource.basepath(base);
  configuredFor = base;
}

/** A discovery answer (ServiceProviderConfig, Schemas, ResourceTypes; one or all) as scimmy makes it. */
export async function discovery(
  kind: 'ServiceProviderConfig' | 'Schema' | 'ResourceType',
  id?: string,
): Promise<unknown> {
  try {
    const resource =
      kind === 'ServiceProviderConfig'
        ? new SCIMMY.Resources.ServiceProviderConfig()
        : kind === 'Schema'
          ? new SCIMMY.Resources.Schema(id)
          : new SCIMMY.Resources.ResourceType(id);
    // scimmy's read answers a plain object of its own making: it is sent as JSON as it is.
    return await (resource as { read(): Promise<unknown> }).read();
  } catch (error) {
    throw asProblem(error);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A member as SCIM shows them: userName is the address, the name's parts as the directory sent them. */
export function userResource(row: ScimUserRow, base: string): ScimUser {
  const parts =
    row.given_name !== null &&
    row.family_name !== null &&
    [row.given_name, row.family_name].filter(Boolean).join(' ') === row.name;
  return {
    schemas: [SCIM_USER],
    id: row.id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    userName: row.user_name ?? row.email,
    name: {
      formatted: row.name,
      ...(parts ? { givenName: row.given_name!, familyName: row.family_name! } : {}),
    },
    displayName: row.name,
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: row.disabled_at === null,
    meta: {
      resourceType: 'User',
      created: iso(row.created_at),
      lastModified: iso(row.updated_at ?? row.created_at),
      location: `${base}/Users/${row.id}`,
    },
  };
}

export function groupResource(row: ScimGroupRow, base: string): ScimGroup {
  return {
    schemas: [SCIM_GROUP],
    id: row.id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    displayName: row.name,
    ...(row.members
      ? {
          members: row.members.map((member) => ({
            value: member.id,
            display: member.name,
            type: 'User',
            $ref: `${base}/Users/${member.id}`,
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: iso(row.created_at),
      lastModified: iso(row.updated_at ?? row.created_at),
      location: `${base}/Groups/${row.id}`,
    },
  };
}

export const listResponse = <T>(resources: T[], total: number, startIndex: number) => ({
  schemas: [SCIM_LIST] as [typeof SCIM_LIST],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

/** `startIndex` and `count` as RFC 7644 §3.4.2.4 reads them: below 1 is 1, below 0 is 0, capped. */
export function paging(query: { startIndex?: string; count?: string }): {
  startIndex: number;
  count: number;
} {
  const number = (value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!/^-?\d{1,9}$/.test(value.trim()))
      throw new ScimProblem(400, `not an integer: ${value}`, 'invalidValue');
    return Number(value);
  };
  return {
    startIndex: Math.max(1, number(query.startIndex, 1)),
    count: Math.min(SCIM_MAX_RESULTS, Math.max(0, number(query.count, SCIM_DEFAULT_COUNT))),
  };
}

type Comparison = [string, unknown];

/** scimmy lets a dangling logical operator through (`… and`, `[type eq "work" and]`): refused here. */
function dangling(filter: string): boolean {
  const outside = filter.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return /\b(?:and|or|not)\s*(?:$|[)\]])/i.test(outside);
}

/** A filter's conditions, each `eq` on one attribute; anything else is refused as `invalidFilter`. */
function conditionsOf(filter: string, attributes: Record<string, (value: string) => string | null>) {
  if (dangling(filter)) throw new ScimProblem(400, 'the filter ends in an operator', 'invalidFilter');
  let parsed: Array<Record<string, unknown>>;
  try {
    parsed = [...new SCIMMY.Types.Filter(filter)] as Array<Record<string, unknown>>;
  } catch (error) {
    throw new ScimProblem(400, asProblem(error).message, 'invalidFilter');
  }
  if (parsed.length !== 1)
    throw new ScimProblem(400, 'only "eq" joined by "and" is supported', 'invalidFilter');
  const found: Array<{ attribute: string; value: string }> = [];
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, test] of Object.entries(node)) {
      // scimmy keeps the attribute's case as written but for its first letter; SCIM's names ignore case.
      const name = `${prefix}${key.toLowerCase()}`;
      if (!Array.isArray(test)) {
        if (typeof test !== 'object' || test === null)
          throw new ScimProblem(400, `bad filter at ${name}`, 'invalidFilter');
        walk(test as Record<string, unknown>, `${name}.`);
        continue;
      }
      const [operator, value] = test as Comparison;
      if (test.length !== 2 || String(operator).toLowerCase() !== 'eq' || typeof value !== 'string')
        throw new ScimProblem(400, `only "eq" with a string is supported (at ${name})`, 'invalidFilter');
      found.push({ attribute: name, value });
    }
  };
  walk(parsed[0]!, '');
  // `emails[type eq "work"].value`: the type is a condition on which address, and the only one is work.
  const conditions: Array<{ attribute: string; value: string }> = [];
  for (const { attribute, value } of found) {
    if (attribute === 'emails.type') {
      if (value.toLowerCase() !== 'work') conditions.push({ attribute: 'none', value });
      continue;
    }
    const map = attributes[attribute];
    if (!map) throw new ScimProblem(400, `filtering on ${attribute} is not supported`, 'invalidFilter');
    const mapped = map(value);
    conditions.push(mapped === null ? { attribute: 'none', value } : { attribute: attribute, value: mapped });
  }
  return conditions;
}

const CORE_USER = SCIM_USER.toLowerCase();
const CORE_GROUP = SCIM_GROUP.toLowerCase();
const withoutUrn = (attribute: string, urn: string) =>
  attribute.startsWith(`${urn}:`) ? attribute.slice(urn.length + 1) : attribute;

/** A Users filter as the repository's conditions; null when it can match nobody. */
export function userConditions(filter: string): UserCondition[] | null {
  const email = (value: string) => normaliseEmail(value);
  const conditions = conditionsOf(filter, {
    id: (value) => value,
    username: email,
    externalid: (value) => value,
    'emails.value': email,
    displayname: (value) => value,
    [`${CORE_USER}:username`]: email,
    [`${CORE_USER}:externalid`]: (value) => value,
  });
  if (conditions.some((c) => c.attribute === 'none')) return null;
  return conditions.map(({ attribute, value }) => {
    const name = withoutUrn(attribute, CORE_USER);
    return {
      attribute:
        name === 'username'
          ? 'userName'
          : name === 'emails.value'
            ? 'email'
            : name === 'externalid'
              ? 'externalId'
              : name === 'displayname'
                ? 'displayName'
                : 'id',
      value,
    };
  });
}

export function groupConditions(filter: string): GroupCondition[] | null {
  const conditions = conditionsOf(filter, {
    id: (value) => value,
    displayname: (value) => value,
    externalid: (value) => value,
    'members.value': (value) => value,
    [`${CORE_GROUP}:displayname`]: (value) => value,
  });
  if (conditions.some((c) => c.attribute === 'none')) return null;
  return conditions.map(({ attribute, value }) => {
    const name = withoutUrn(attribute, CORE_GROUP);
    return {
      attribute:
        name === 'displayname'
          ? 'displayName'
          : name === 'externalid'
            ? 'externalId'
            : name === 'members.value'
              ? 'member'
              : 'id',
      value,
    };
  });
}

/** `excludedAttributes=members` (or `attributes` without members): whether a group's members are left out. */
export function excludesMembers(query: { excludedAttributes?: string; attributes?: string }): boolean {
  const list = (value?: string) =>
    (value ?? '').split(',').map((item) => withoutUrn(item.trim().toLowerCase(), CORE_GROUP));
  if (list(query.excludedAttributes).includes('members')) return true;
  return query.attributes !== undefined && !list(query.attributes).includes('members');
}

/** A body as scimmy reads it (types checked, unknown attributes dropped), or the refusal. */
function parsed(kind: 'User' | 'Group', body: unknown): Record<string, unknown> {
  try {
    const resource =
      kind === 'User' ? new SCIMMY.Schemas.User(body, 'in') : new SCIMMY.Schemas.Group(body, 'in');
    return { ...resource } as Record<string, unknown>;
  } catch (error) {
    throw asProblem(error);
  }
}

const isAddress = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= LIMITS.email;

/**
 * The address of a user resource: its work e-mail (else its primary, else its first), or its userName
 * when it sends none. Entra ID's userName is what the tenant maps to it (a UPN, a nickname), not
 * always where mail reaches the person.
 */
function addressOf(userName: string, emails: unknown): string | null {
  const list = (Array.isArray(emails) ? emails : []) as Array<Record<string, unknown>>;
  const chosen = list.find((e) => e.type === 'work') ?? list.find((e) => e.primary === true) ?? list[0];
  const value = normaliseEmail(typeof chosen?.value === 'string' ? chosen.value : userName);
  return isAddress(value) ? value : null;
}

/** The member a user resource describes: the address from userName or e-mails, the name from its parts. */
export function userFields(resource: Record<string, unknown>): ScimUserFields {
  const userName = typeof resource.userName === 'string' ? resource.userName.trim() : '';
  if (!userName || userName.length > LIMITS.email)
    throw new ScimProblem(400, 'userName is required', 'invalidValue');
  const email = addressOf(userName, resource.emails);
  if (email === null)
    throw new ScimProblem(400, 'userName or a work e-mail must be an e-mail address', 'invalidValue');
  const name = (resource.name ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
  const givenName = text(name.givenName);
  const familyName = text(name.familyName);
  const chosen =
    [givenName, familyName].filter(Boolean).join(' ') ||
    text(name.formatted) ||
    text(resource.displayName) ||
    email.split('@')[0]!;
  // A directory's names may be longer than the team's 50 characters: the name is cut, its parts kept.
  const cleaned = cleanName(Array.from(chosen.normalize('NFC')).slice(0, NAME_MAX).join(''));
  if (!('name' in cleaned)) throw new ScimProblem(400, `name: ${cleaned.message}`, 'invalidValue');
  return {
    userName,
    userNameKey: normaliseEmail(userName),
    email,
    name: cleaned.name,
    givenName,
    familyName,
    externalId: text(resource.externalId),
    active: resource.active !== false,
  };
}

/** A POST or PUT body of /Users as the member it describes. */
export const userFromBody = (body: unknown) => userFields(parsed('User', body));

export function groupFields(resource: Record<string, unknown>) {
  // Directories match groups by their whole name (Entra ID allows 256 characters): never cut.
  const cleaned = cleanName(
    typeof resource.displayName === 'string' ? resource.displayName : '',
    GROUP_NAME_MAX,
  );
  if (!('name' in cleaned)) throw new ScimProblem(400, `displayName: ${cleaned.message}`, 'invalidValue');
  const members = Array.isArray(resource.members) ? resource.members : [];
  const ids = members.map((member) =>
    typeof member === 'object' && member !== null ? (member as { value?: unknown }).value : undefined,
  );
  if (ids.some((id) => typeof id !== 'string'))
    throw new ScimProblem(400, 'each member needs its value (the member id)', 'invalidValue');
  const externalId =
    typeof resource.externalId === 'string' && resource.externalId ? resource.externalId : null;
  return { name: cleaned.name, externalId, memberIds: [...new Set(ids as string[])] };
}

export const groupFromBody = (body: unknown) => groupFields(parsed('Group', body));

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `path` names a single-valued complex attribute of the resource (`name`, `manager`). */
function singleComplex(kind: 'User' | 'Group', path: string): boolean {
  const definition = kind === 'User' ? SCIMMY.Schemas.User.definition : SCIMMY.Schemas.Group.definition;
  try {
    const attribute = definition.attribute(path) as SCIMMY.Types.Attribute;
    return attribute.type === 'complex' && !attribute.config.multiValued;
  } catch {
    return false;
  }
}

/** A value filter in a path (`members[value eq "…"]`) that scimmy would let through half-written. */
function checkPathFilter(path: string): void {
  const inside = /\[(.*)\]/.exec(path)?.[1];
  if (inside === undefined) return;
  const refuse = () => new ScimProblem(400, `not a valid value filter: ${path}`, 'invalidPath');
  if (dangling(inside)) throw refuse();
  let parsed: unknown[];
  try {
    parsed = [...new SCIMMY.Types.Filter(inside)];
  } catch {
    throw refuse();
  }
  const complete = (node: unknown): boolean =>
    Array.isArray(node)
      ? node.length >= 2 || /^(pr|np)$/i.test(String(node[0]))
      : isPlain(node) && Object.values(node).every(complete);
  if (!parsed.every(complete)) throw refuse();
}

/**
 * Clients' PATCH messages made standard before scimmy applies them: Entra ID has sent booleans as
 * "True"/"False"; Okta's `replace` without a path repeats the resource's own `id` (read-only); a value
 * filter in a path must be whole. And RFC 7644 §3.5.2.1/3: an `add` or `replace` of a single-valued
 * complex attribute (`name`) changes the sub-attributes it names and leaves the others, where scimmy
 * would replace the whole attribute: such an operation becomes one per sub-attribute.
 */
function normalisedOperations(kind: 'User' | 'Group', body: unknown, id: string): unknown {
  if (!isPlain(body) || !Array.isArray(body.Operations)) return body;
  const flag = (v: unknown) =>
    typeof v === 'string' && /^(true|false)$/i.test(v) ? v.toLowerCase() === 'true' : v;
  const operations = body.Operations.flatMap((operation: unknown): unknown[] => {
    if (!isPlain(operation)) return [operation];
    const { op, path, value, ...rest } = operation;
    const merges = typeof op === 'string' && /^(add|replace)$/i.test(op);
    const split = (at: string, parts: Record<string, unknown>) =>
      Object.entries(parts).map(([key, part]) => ({ ...rest, op, path: `${at}.${key}`, value: part }));
    if (typeof path === 'string') {
      checkPathFilter(path);
      if (merges && isPlain(value) && singleComplex(kind, path)) return split(path, value);
      return [{ ...rest, op, path, value: path.toLowerCase() === 'active' ? flag(value) : value }];
    }
    if (!isPlain(value)) return [{ ...rest, op, ...(path === undefined ? {} : { path }), value }];
    const copy: Record<string, unknown> = { ...value };
    if (copy.id === id) delete copy.id;
    if ('active' in copy) copy.active = flag(copy.active);
    const parts = Object.entries(copy).filter(
      ([key, part]) => merges && isPlain(part) && singleComplex(kind, key),
    );
    for (const [key] of parts) delete copy[key];
    return [
      ...(Object.keys(copy).length > 0 || parts.length === 0 ? [{ ...rest, op, value: copy }] : []),
      ...parts.flatMap(([key, part]) => split(key, part as Record<string, unknown>)),
    ];
  });
  return { ...body, Operations: operations };
}

/** Apply a PatchOp body to a resource as scimmy does; the resource as it then is. */
export async function applyPatch(
  kind: 'User' | 'Group',
  resource: ScimUser | ScimGroup,
  body: unknown,
): Promise<Record<string, unknown>> {
  try {
    const message = new SCIMMY.Messages.PatchOp(
      normalisedOperations(kind, body, resource.id) as ConstructorParameters<
        typeof SCIMMY.Messages.PatchOp
      >[0],
    );
    // A member to remove is matched on what the operation names of it (Entra ID: value and a null
    // $ref): the members are given as value and display only.
    const current =
      kind === 'User'
        ? new SCIMMY.Schemas.User(resource, 'out')
        : new SCIMMY.Schemas.Group(
            {
              ...resource,
              members: ((resource as ScimGroup).members ?? []).map(({ value, display }) => ({
                value,
                display,
              })),
            },
            'out',
          );
    const patched = await message.apply(current);
    // scimmy answers nothing when nothing changed.
    return { ...(patched ?? current) } as Record<string, unknown>;
  } catch (error) {
    throw asProblem(error);
  }
}
