import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { SetupLinkForOpen, SetupLinkWithCreator } from '../db/setup-links';
import { SETUP_ACTOR_PREFIX, SETUP_LINK_TTL_MS, setupLinkState } from '../../../src/contract/team-rules';
import {
  createSetupLinkSchema,
  listSetupLinksSchema,
  openSetupLinkSchema,
  revokeSetupLinkSchema,
  type SetupGoneReason,
  type SetupLink,
} from '../../../src/contract/schemas/setup-links';
import { cookiesOf } from '../lib/cookies';
import { randomToken, safeEqual, sha256 } from '../lib/crypto';
import { answerLanguage } from '../lib/language';
import { clientAddress, normaliseEmail } from '../lib/normalise';
import { sendInBackground } from '../lib/notify';
import { cookieOptions } from '../lib/session';
import { SETUP_TOKEN_TTL_SECONDS } from '../lib/tokens';
import { mailBrand, setupMail } from '../mail/compose';
import { adminOf, SETUP_ACTOR_NAME } from '../plugins/auth';

/** The cookie that binds a setup link to the browser that first opened it. */
const SETUP_COOKIE = 'acct_setup';
/** Per address, for opening links: generous for an office behind one address, dear for guessing. */
const OPEN_ADDRESS_LIMIT = { max: 60, windowMs: 15 * 60_000 };

const GONE: Record<SetupGoneReason, string> = {
  used: 'this setup link was opened in another browser',
  revoked: 'this setup link was withdrawn',
  expired: 'this setup link has expired',
  invalid: 'this setup link is not valid',
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const toSetupLink = (row: SetupLinkWithCreator, now: number): SetupLink => ({
  id: row.id,
  email: row.email,
  state: setupLinkState(row, now),
  createdAt: new Date(row.created_at).toISOString(),
  expiresAt: new Date(row.expires_at).toISOString(),
  openedAt: iso(row.opened_at),
  revokedAt: iso(row.revoked_at),
  createdBy:
    row.creator_name !== null && row.creator_email !== null
      ? { name: row.creator_name, email: row.creator_email }
      : null,
});

/** The IT contact as the audit trail names them (plugins/auth.ts does the same on their calls). */
const contactOf = (link: SetupLinkForOpen) => ({
  id: `${SETUP_ACTOR_PREFIX}${link.id}`,
  name: SETUP_ACTOR_NAME,
  email: link.email,
});

/**
 * Setup links (docs/decisions/setup-links.md): a team's owners mail one to the person who runs their
 * company's identity provider (five days, revocable), who opens it without an account: the first
 * browser to open it is the only one it works in (the `acct_setup` cookie, stored hashed), and each
 * opening answers a short-lived setup token that the team's domain and connection routes take
 * (plugins/auth.ts). Tokens follow the invitation links' rules: 256 bits, only the SHA-256 stored.
 */
export const setupLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, config, tokens, limiter } = app.services;
  const owner = { auth: 'bearer', role: 'owner' } as const;
  const cookie = { ...cookieOptions(config, true), path: '/account/setup', maxAge: SETUP_LINK_TTL_MS / 1000 };

  app.get('/api/team/setup-links', { config: owner, schema: listSetupLinksSchema }, async (request) => {
    const rows = await repos.setupLinks.list(adminOf(request).teamId);
    return { links: rows.map((row) => toSetupLink(row, clock.now())) };
  });

  app.post(
    '/api/team/setup-links',
    { config: { ...owner, body: 'json', invalid: { email: 'invalidEmail' } }, schema: createSetupLinkSchema },
    async (request, reply) => {
      const admin = adminOf(request);
      const token = randomToken(32);
      const now = clock.now();
      const row = await repos.setupLinks.create({
        teamId: admin.teamId,
        email: normaliseEmail(request.body.email),
        tokenHash: sha256(token),
        owner: admin.actor,
        now,
        expiresAt: now + SETUP_LINK_TTL_MS,
      });
      // Built from PUBLIC_URL, never from the request's Host header; the token exists only in the mail.
      const team = await repos.teams.brandingOf(admin.teamId);
      const message = setupMail({
        language: answerLanguage(request, admin.caller.user.language),
        brand: mailBrand(team.brand ?? config.brand),
        owner: { name: admin.actor.name, email: admin.actor.email },
        team: team.display_name,
        link: `${config.publicUrl}/setup/${token}`,
        expires: new Date(row.expires_at),
      });
      sendInBackground(request, { to: row.email, ...message });
      return reply.code(201).send(toSetupLink(row, now));
    },
  );

  app.delete(
    '/api/team/setup-links/:id',
    { config: owner, schema: revokeSetupLinkSchema },
    async (request, reply) => {
      const { teamId, actor } = adminOf(request);
      if (!(await repos.setupLinks.revoke(teamId, request.params.id, actor, clock.now())))
        return reply.code(404).send({ message: 'no such setup link', code: 'notFound' });
      return reply.code(204).send();
    },
  );

  const gone = (reply: FastifyReply, reason: SetupGoneReason) =>
    reply.code(410).send({ message: GONE[reason], code: 'gone' as const, reason });

  // The IT contact's page opens the link, at first and whenever its token runs out. A wrong token
  // learns only `invalid`; the right one learns why its link no longer works.
  app.post(
    '/account/setup/open',
    { config: { auth: 'none', body: 'json' }, schema: openSetupLinkSchema },
    async (request, reply) => {
      if (await limiter.refuse(reply, `setup:ip:${clientAddress(request.ip)}`, OPEN_ADDRESS_LIMIT))
        return reply;
      const now = clock.now();
      const tokenHash = sha256(request.body.token);
      let link = await repos.setupLinks.findByTokenHash(tokenHash);
      if (!link || link.team_disabled) return gone(reply, 'invalid');
      const state = setupLinkState(link, now);
      if (state === 'revoked' || state === 'expired') return gone(reply, state);
      const browser = cookiesOf(request)[SETUP_COOKIE] ?? randomToken(32);
      if (link.browser_hash === null) {
        // The first opening binds the link to this browser; of two at once, one wins (and a second tab
        // of the same browser, which sent the same cookie, finds it bound to itself).
        if (await repos.setupLinks.bind(link, sha256(browser), contactOf(link), now)) {
          reply.setCookie(SETUP_COOKIE, browser, cookie);
          link = { ...link, browser_hash: sha256(browser) };
        } else link = await repos.setupLinks.findByTokenHash(tokenHash);
      }
      if (!link?.browser_hash || !safeEqual(sha256(browser), link.browser_hash)) {
        // Bound meanwhile and revoked since is still the owner's doing: say so rather than `used`.
        return gone(reply, link?.revoked_at ? 'revoked' : 'used');
      }
      return {
        accessToken: await tokens.setupToken(link.id, link.team_id),
        expiresIn: SETUP_TOKEN_TTL_SECONDS,
        linkExpiresAt: new Date(link.expires_at).toISOString(),
        email: link.email,
        team: { name: link.team_name, displayName: link.team_display_name },
      };
    },
  );
};
