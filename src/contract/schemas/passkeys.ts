import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits';
import { errors, NoBody, type RouteSchema } from './common';

/**
 * Passkeys (WebAuthn, discoverable credentials): registration by a signed-in user, sign-in without a
 * session, and the user's list. The options are what `navigator.credentials.create()` / `.get()` take
 * in their JSON form (`PublicKeyCredential.parseCreationOptionsFromJSON`), as @simplewebauthn/server
 * makes them. The elements import the types only.
 */

const B64 = Type.String({ maxLength: 4096, pattern: '^[A-Za-z0-9_-]*={0,2}$' });
const Transports = Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 });
const CredentialRef = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('public-key'),
    transports: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

/** `POST /api/user/passkeys/options`: what `navigator.credentials.create()` takes. */
export const RegistrationOptions = Type.Object(
  {
    challenge: Type.String(),
    rp: Type.Object({ name: Type.String(), id: Type.String() }, { additionalProperties: false }),
    user: Type.Object(
      { id: Type.String(), name: Type.String(), displayName: Type.String() },
      { additionalProperties: false },
    ),
    pubKeyCredParams: Type.Array(
      Type.Object({ alg: Type.Integer(), type: Type.Literal('public-key') }, { additionalProperties: false }),
    ),
    timeout: Type.Integer(),
    attestation: Type.String(),
    excludeCredentials: Type.Array(CredentialRef),
    authenticatorSelection: Type.Object(
      {
        residentKey: Type.Optional(Type.String()),
        requireResidentKey: Type.Optional(Type.Boolean()),
        userVerification: Type.Optional(Type.String()),
        authenticatorAttachment: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    extensions: Type.Object({ credProps: Type.Boolean() }, { additionalProperties: false }),
    hints: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type RegistrationOptions = Static<typeof RegistrationOptions>;

/** `POST /account/passkey/options`: what `navigator.credentials.get()` takes (any passkey of the site). */
export const AuthenticationOptions = Type.Object(
  {
    rpId: Type.String(),
    challenge: Type.String(),
    timeout: Type.Integer(),
    userVerification: Type.String(),
  },
  { additionalProperties: false },
);
export type AuthenticationOptions = Static<typeof AuthenticationOptions>;

/** The browser's extension outputs: passed through to the verifier, never stored. */
const ExtensionResults = Type.Record(Type.String({ maxLength: 50 }), Type.Unknown(), { maxProperties: 20 });

/** `PublicKeyCredential.toJSON()` of a new credential. */
export const RegistrationResponse = Type.Object(
  {
    id: B64,
    rawId: B64,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: B64,
        attestationObject: B64,
        authenticatorData: Type.Optional(B64),
        transports: Type.Optional(Transports),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        publicKey: Type.Optional(B64),
      },
      { additionalProperties: false },
    ),
    authenticatorAttachment: Type.Optional(Type.String({ maxLength: 20 })),
    clientExtensionResults: ExtensionResults,
  },
  { additionalProperties: false },
);

/** `PublicKeyCredential.toJSON()` of an assertion. */
export const AuthenticationResponse = Type.Object(
  {
    id: B64,
    rawId: B64,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: B64,
        authenticatorData: B64,
        signature: B64,
        userHandle: Type.Optional(B64),
      },
      { additionalProperties: false },
    ),
    authenticatorAttachment: Type.Optional(Type.String({ maxLength: 20 })),
    clientExtensionResults: ExtensionResults,
  },
  { additionalProperties: false },
);

const Name = Type.String({ minLength: 1, maxLength: LIMITS.nameInput });

/** A passkey as its owner sees it. */
export const PasskeyView = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    /** Synced between devices (a multi-device passkey) or bound to one authenticator. */
    synced: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type PasskeyView = Static<typeof PasskeyView>;

export const registrationOptionsSchema = {
  response: { 200: RegistrationOptions, ...errors(400, 401, 403, 413, 415, 429, 500) },
} satisfies RouteSchema;

/** `POST /api/user/passkeys`: 400 `invalidName`, `passkeyRefused`; 409 `alreadyRegistered`. */
export const registerSchema = {
  body: Type.Object({ name: Name, response: RegistrationResponse }, { additionalProperties: false }),
  response: { 201: PasskeyView, ...errors(400, 401, 403, 409, 413, 415, 429, 500) },
} satisfies RouteSchema;

export const listSchema = {
  response: {
    200: Type.Object({ passkeys: Type.Array(PasskeyView) }, { additionalProperties: false }),
    ...errors(400, 401, 500),
  },
} satisfies RouteSchema;

export const PasskeyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const renameSchema = {
  params: PasskeyParams,
  body: Type.Object({ name: Name }, { additionalProperties: false }),
  response: { 200: PasskeyView, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/** `DELETE /api/user/passkeys/:id`: 409 `onlySignIn` for the last way to sign in. */
export const removeSchema = {
  params: PasskeyParams,
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
} satisfies RouteSchema;

/** `POST /api/user/passkeys/reauth-options`: options to prove presence with one of the caller's passkeys. */
export const reauthOptionsSchema = {
  response: { 200: AuthenticationOptions, ...errors(400, 401, 403, 413, 415, 429, 500) },
} satisfies RouteSchema;

export const authenticationOptionsSchema = {
  /** `team`: the sign-in page's team; 403 `passkeysOff` when it has turned passkey sign-in off. */
  querystring: Type.Object(
    { team: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.teamName })) },
    { additionalProperties: false },
  ),
  response: { 200: AuthenticationOptions, ...errors(400, 403, 413, 415, 429, 500) },
} satisfies RouteSchema;

/**
 * `POST /account/passkey`: 401 `passkeyRefused` for every refusal alike; 403 `passkeysOff` for a verified
 * passkey whose team has turned passkey sign-in off, unless it finishes the user's pending sign-in. `teamName`: the team whose
 * sign-in page asks; a passkey of a member of another team is refused. `secondStep`: it finishes the
 * browser's pending two-step sign-in, so it must be that user's own passkey.
 */
export const passkeySignInSchema = {
  body: Type.Object(
    {
      response: AuthenticationResponse,
      teamName: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.teamName })),
      secondStep: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({ authenticated: Type.Literal(true) }, { additionalProperties: false }),
    ...errors(400, 401, 403, 413, 415, 429, 500),
  },
} satisfies RouteSchema;

/** `GET /.well-known/webauthn`: the origins that may use this relying party id (Related Origin Requests). */
export const wellKnownSchema = {
  response: {
    200: Type.Object({ origins: Type.Array(Type.String()) }, { additionalProperties: false }),
    ...errors(400, 500),
  },
} satisfies RouteSchema;
