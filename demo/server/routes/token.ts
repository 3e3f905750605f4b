import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { sessionOf } from '../plugins/cookies';

const SESSION_GRANT = 'device_code';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

function oauthError(reply: FastifyReply, error: string, description: string, status = 400) {
  return reply.code(status).send({ error, error_description: description, message: description });
}

/**
 * POST /connect/token. The portal's session exchange (`grant_type=device_code` with `sessionId`): the
 * session id must be the public handle of the caller's own session cookie. The RFC 8628 device grant
 * is answered as unsupported until device codes exist.
 */
export async function tokenRoutes(app: FastifyInstance): Promise<void> {
  const { config, db, tokens } = app.services;
  app.post(
    '/connect/token',
    {
      config: { body: 'form' },
      schema: {
        body: Type.Object(
          {
            grant_type: Type.String({ maxLength: 200 }),
            client_id: Type.Optional(Type.String({ maxLength: 200 })),
            sessionId: Type.Optional(Type.String({ maxLength: 200 })),
            device_code: Type.Optional(Type.String({ maxLength: 400 })),
            __RequestVerificationToken: Type.Optional(Type.String({ maxLength: 400 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const body = request.body as { grant_type: string; client_id?: string; sessionId?: string };
      if (body.grant_type === DEVICE_GRANT) {
        return oauthError(
          reply,
          'unsupported_grant_type',
          'device codes are not available on this server yet',
        );
      }
      if (body.grant_type !== SESSION_GRANT) {
        return oauthError(reply, 'unsupported_grant_type', 'grant_type must be device_code');
      }
      if (body.client_id !== config.portalClientId)
        return oauthError(reply, 'invalid_client', 'unknown client', 400);
      const session = await sessionOf(request);
      if (!session || !body.sessionId || session.public_id !== body.sessionId) {
        return oauthError(reply, 'invalid_grant', 'the session is not yours or has ended');
      }
      const user = await db
        .selectFrom('users')
        .innerJoin('teams', 'teams.id', 'users.team_id')
        .select(['users.id', 'users.name', 'users.email', 'users.team_id', 'teams.name as team_name'])
        .where('users.id', '=', session.user_id)
        .executeTakeFirst();
      if (!user) return oauthError(reply, 'invalid_grant', 'the session is not yours or has ended');
      const subject = {
        userId: user.id,
        teamId: user.team_id,
        teamName: user.team_name,
        name: user.name,
        email: user.email,
      };
      const [accessToken, idToken] = await Promise.all([
        tokens.accessToken(subject, config.portalClientId, ['openid', 'profile', 'email'], session.public_id),
        tokens.idToken(subject, config.portalClientId),
      ]);
      reply.header('Pragma', 'no-cache');
      return { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, id_token: idToken };
    },
  );
}
