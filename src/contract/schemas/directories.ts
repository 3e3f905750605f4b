import { Type, type Static } from 'typebox';
import { DIRECTORY_SIGN_IN } from '../directories';
import { LIMITS } from '../limits';
import { errors, NoBody, type RouteSchema } from './common';

const closed = { additionalProperties: false } as const;

/** How the members a directory makes sign in (contract/directories.ts). */
export const DirectorySignIn = Type.Enum([...DIRECTORY_SIGN_IN]);
export type DirectorySignIn = Static<typeof DirectorySignIn>;

/** A team's directory (a SCIM client such as Okta or Entra ID) as its admins see it: never its token. */
export const Directory = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    signIn: DirectorySignIn,
    createdAt: Type.String({ format: 'date-time' }),
    /** When its token was last replaced, if ever. */
    rotatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    /** When the directory last called (to the minute), if ever. */
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  closed,
);
export type Directory = Static<typeof Directory>;

/** The team's directories, and the SCIM address they call (the same for all: the token tells them apart). */
export const DirectoryList = Type.Object(
  { directories: Type.Array(Directory), scimUrl: Type.String() },
  closed,
);
export type DirectoryList = Static<typeof DirectoryList>;

/** A directory with its token in clear: answered once, when it is made or replaced. */
export const DirectoryWithToken = Type.Object(
  { directory: Directory, token: Type.String(), scimUrl: Type.String() },
  closed,
);
export type DirectoryWithToken = Static<typeof DirectoryWithToken>;

/** `POST /api/team/directories`: a name (trimmed, 1–50 characters) and how its members sign in. */
export const DirectoryBody = Type.Object(
  { name: Type.String({ maxLength: LIMITS.nameInput }), signIn: DirectorySignIn },
  closed,
);
export type DirectoryBody = Static<typeof DirectoryBody>;

const DirectoryParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }, closed);

export const listDirectoriesSchema = {
  response: { 200: DirectoryList, ...errors(400, 401, 403, 500) },
} satisfies RouteSchema;

/** 400 `invalidName` (with `field`). */
export const createDirectorySchema = {
  body: DirectoryBody,
  response: { 201: DirectoryWithToken, ...errors(400, 401, 403, 413, 415, 500) },
} satisfies RouteSchema;

/** A new token: the old one stops at once. */
export const rotateDirectoryTokenSchema = {
  params: DirectoryParams,
  response: { 200: DirectoryWithToken, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/** Revoke: the directory and its token go; the members it made stay. */
export const deleteDirectorySchema = {
  params: DirectoryParams,
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;
