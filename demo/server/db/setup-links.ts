import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordAudit, type Actor } from './audit';
import type { Database, SetupLinkRow } from './schema';

/** A setup link with the owner who sent it (null once they are gone). */
export type SetupLinkWithCreator = SetupLinkRow & {
  creator_name: string | null;
  creator_email: string | null;
};

/** A setup link with what its opener sees of the team. */
export type SetupLinkForOpen = SetupLinkRow & {
  team_name: string;
  team_display_name: string;
  team_disabled: number;
};

export interface NewSetupLink {
  teamId: string;
  email: string;
  tokenHash: string;
  owner: Actor;
  now: number;
  expiresAt: number;
}

/** How many of a team's links its owners see: the newest. */
const LIST_LIMIT = 50;

/**
 * Setup links for a team's IT contact, stored by the SHA-256 of their token (the token travels only by
 * mail) and bound on first opening to one browser by the SHA-256 of its cookie.
 */
export function setupLinksRepository(db: Kysely<Database>) {
  const withCreator = (executor: Kysely<Database>) =>
    executor
      .selectFrom('setup_links')
      .leftJoin('users', 'users.id', 'setup_links.created_by')
      .selectAll('setup_links')
      .select(['users.name as creator_name', 'users.email as creator_email']);
  const withTeam = () =>
    db
      .selectFrom('setup_links')
      .innerJoin('teams', 'teams.id', 'setup_links.team_id')
      .selectAll('setup_links')
      .select([
        'teams.name as team_name',
        'teams.display_name as team_display_name',
        'teams.disabled as team_disabled',
      ]);

  return {
    /** The team's newest links, whatever their state, newest first. */
    list(teamId: string): Promise<SetupLinkWithCreator[]> {
      return withCreator(db)
        .where('setup_links.team_id', '=', teamId)
        .orderBy('setup_links.created_at', 'desc')
        .orderBy('setup_links.id')
        .limit(LIST_LIMIT)
        .execute();
    },

    /** A new link, audited with it. */
    create(link: NewSetupLink): Promise<SetupLinkWithCreator> {
      return db.transaction().execute(async (trx) => {
        const id = randomUUID();
        await trx
          .insertInto('setup_links')
          .values({
            id,
            team_id: link.teamId,
            email: link.email,
            token_hash: link.tokenHash,
            created_by: link.owner.id,
            created_at: link.now,
            expires_at: link.expiresAt,
            revoked_at: null,
            opened_at: null,
            browser_hash: null,
          })
          .execute();
        await recordAudit(trx, {
          teamId: link.teamId,
          actor: link.owner,
          action: 'setupLink.created',
          target: link.email,
          now: link.now,
        });
        return withCreator(trx).where('setup_links.id', '=', id).executeTakeFirstOrThrow();
      });
    },

    /** Revoke a link of the team that is not revoked yet; whether there was one. Its tokens stop at once. */
    revoke(teamId: string, id: string, actor: Actor, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('setup_links')
          .set({ revoked_at: now })
          .where('id', '=', id)
          .where('team_id', '=', teamId)
          .where('revoked_at', 'is', null)
          .returning('email')
          .executeTakeFirst();
        if (!row) return false;
        await recordAudit(trx, { teamId, actor, action: 'setupLink.revoked', target: row.email, now });
        return true;
      });
    },

    /** The link a token's hash names, with its team. */
    findByTokenHash(tokenHash: string): Promise<SetupLinkForOpen | undefined> {
      return withTeam().where('setup_links.token_hash', '=', tokenHash).executeTakeFirst();
    },

    /**
     * Bind a link that no browser has opened yet to this one, by one conditional UPDATE (of two
     * browsers opening it at once exactly one wins), audited as opened by the IT contact.
     */
    bind(link: SetupLinkRow, browserHash: string, actor: Actor, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const bound = await trx
          .updateTable('setup_links')
          .set({ browser_hash: browserHash, opened_at: now })
          .where('id', '=', link.id)
          .where('browser_hash', 'is', null)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        if (Number(bound.numUpdatedRows) !== 1) return false;
        await recordAudit(trx, {
          teamId: link.team_id,
          actor,
          action: 'setupLink.opened',
          target: link.email,
          now,
        });
        return true;
      });
    },

    /**
     * The link a setup token names, if it still works for the team the token names: opened, not
     * revoked, not expired, its team not disabled. Read on every call, so revoking stops its tokens at
     * once.
     */
    live(id: string, teamId: string, now: number): Promise<SetupLinkForOpen | undefined> {
      return withTeam()
        .where('setup_links.id', '=', id)
        .where('setup_links.team_id', '=', teamId)
        .where('setup_links.revoked_at', 'is', null)
        .where('setup_links.expires_at', '>', now)
        .where('setup_links.browser_hash', 'is not', null)
        .where('teams.disabled', '=', 0)
        .executeTakeFirst();
    },
  };
}

export type SetupLinksRepository = ReturnType<typeof setupLinksRepository>;
