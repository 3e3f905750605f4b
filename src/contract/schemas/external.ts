import { Type } from 'typebox';
import { LIMITS } from '../limits';
import { errors, MessageReply, NoBody, XsrfField, type RouteSchema } from './common';
import { GoneBody } from './invitation';

/**
 * The provider an address names: `google`, `azure`, `auth0` or `apple` under `/account/`, `Google`,
 * `AzureAD`, `Auth0` or `Apple` under `/api/`. Any other name is the route's 404, not a schema error.
 */
export const ProviderParams = Type.Object({ provider: Type.String() }, { additionalProperties: false });

/**
 * `POST /account/:provider/start` (JSON), step one of the elements' sign-in: the issuer address that
 * starts it. `returnUrl`: a path, or an address on a page the issuer trusts (its CORS origins).
 */
export const ProviderStartBody = Type.Object(
  {
    teamName: Type.String({ minLength: 1, maxLength: LIMITS.teamName }),
    returnUrl: Type.Optional(Type.String({ maxLength: 2000 })),
    maxAge: Type.Optional(Type.String({ maxLength: 12 })),
  },
  { additionalProperties: false },
);
export const ProviderStartReply = Type.Object({ location: Type.String() }, { additionalProperties: false });
/** The JSON start may also name an invitation to accept (its link's id and token): the invitee joins. */
export const ProviderStartCall = Type.Object(
  {
    ...ProviderStartBody.properties,
    invitation: Type.Optional(
      Type.Object(
        {
          id: Type.String({ minLength: 1, maxLength: 100 }),
          token: Type.String({ minLength: 1, maxLength: 200 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export const providerStartSchema = {
  params: ProviderParams,
  body: ProviderStartCall,
  // 410: the invitation's link does not work (why, as the invitation screen says it).
  response: { 200: ProviderStartReply, 410: GoneBody, ...errors(400, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/** `POST /account/:provider` (form, spec §7): the same start as a form post; 303 to the provider. */
export const ProviderStartForm = Type.Object(
  { __RequestVerificationToken: XsrfField, ...ProviderStartBody.properties },
  { additionalProperties: false },
);
export const providerStartFormSchema = {
  params: ProviderParams,
  body: ProviderStartForm,
  // 303 to the provider, or back to the sign-in screen when it cannot be reached; 400 not offered.
  response: { 303: NoBody, ...errors(400, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/** `GET /account/:provider/start?ticket=…`, step two (a navigation): 303 to the provider or back. */
export const TicketQuery = Type.Object(
  { ticket: Type.String({ minLength: 1, maxLength: 4096 }) },
  { additionalProperties: false },
);
export const providerTicketSchema = {
  params: ProviderParams,
  querystring: TicketQuery,
  response: { 303: NoBody, ...errors(400, 404, 500) },
} satisfies RouteSchema;

/**
 * `GET /account/callback/:provider`: the provider's answer. Providers may add parameters of their own,
 * so unknown ones are allowed here. 303 to the return address, `/manage`, or back with an `Error`.
 */
export const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    error: Type.Optional(Type.String({ maxLength: 512 })),
    error_description: Type.Optional(Type.String({ maxLength: 2048 })),
    iss: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: true },
);
export const callbackSchema = {
  params: ProviderParams,
  querystring: CallbackQuery,
  response: { 303: NoBody, ...errors(400, 404, 500) },
} satisfies RouteSchema;

/**
 * `POST /account/callback/:provider` (form): Apple's answer by `response_mode=form_post`, a cross-site
 * POST from its page (exempt from the anti-forgery rule: the flow cookie binds it). `user`, on a first
 * sign-in only, holds the user's name as JSON. Only providers that answer by form_post take it (404).
 */
export const CallbackForm = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    error: Type.Optional(Type.String({ maxLength: 512 })),
    error_description: Type.Optional(Type.String({ maxLength: 2048 })),
    iss: Type.Optional(Type.String({ maxLength: 2048 })),
    user: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);
export const callbackFormSchema = {
  params: ProviderParams,
  body: CallbackForm,
  response: { 303: NoBody, ...errors(400, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/**
 * `POST /api/external/:provider` (session, form): link the provider to the signed-in user. 303 to the
 * provider (or to sign in, without a session); 400 not configured for the team.
 */
export const LinkBody = Type.Object(
  { __RequestVerificationToken: XsrfField },
  { additionalProperties: false },
);
export const linkSchema = {
  params: ProviderParams,
  body: LinkBody,
  response: { 303: NoBody, ...errors(400, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/**
 * `DELETE /api/user/password/:provider` (bearer): unlink the provider. 404 not connected; 409 it is
 * the only way left to sign in.
 */
export const unlinkSchema = {
  params: ProviderParams,
  response: { 200: MessageReply, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
} satisfies RouteSchema;
