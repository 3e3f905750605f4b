import { Type } from 'typebox';
import { errors, type RouteSchema } from './common';

/** The longest path parameter the router passes to a route (Fastify's default, 100, would answer 414). */
export const MAX_PARAM_LENGTH = 2048;

/**
 * `GET /api/team/public/:team`, by name or id. Any name the router lets through is looked up: one too
 * long to exist is an unknown team like any other, not a different error.
 */
export const TeamParams = Type.Object(
  { team: Type.String({ minLength: 1, maxLength: MAX_PARAM_LENGTH }) },
  { additionalProperties: false },
);

/** A sign-in method's options: present means the team offers it. */
const Enabled = Type.Object({}, { additionalProperties: false });

/** A team's public details (spec §3): an option object present = that sign-in method is enabled. */
export const TeamPublicReply = Type.Object(
  {
    name: Type.String(),
    displayName: Type.String(),
    teamDisabled: Type.Boolean(),
    localOptions: Type.Optional(Enabled),
    googleOptions: Type.Optional(Enabled),
    azureOptions: Type.Optional(Enabled),
    auth0Options: Type.Optional(Type.Object({ displayName: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export const teamPublicSchema = {
  params: TeamParams,
  response: { 200: TeamPublicReply, ...errors(400, 404, 500) },
} satisfies RouteSchema;
