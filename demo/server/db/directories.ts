import type { Kysely } from 'kysely';
import type { AuditAction } from '../../../src/contract/team-rules';
import { recordAudit, type Actor } from './audit';
import type { Database, DirectoriesTable, DirectorySignIn } from './schema';

/** A directory as its token finds it: with its team's name and whether the team is off. */
export type DirectoryCaller = Pick<
  DirectoriesTable,
  'id' | 'team_id' | 'name' | 'sign_in' | 'created_by_name' | 'created_by_email'
> & {
  team_name: string;
  team_disabled: boolean;
};

/** How often a directory's last use is written at most: every call would be a write per request. */
export const LAST_USED_GRAIN_MS = 60_000;

/**
 * A team's directories (SCIM 2.0 clients), stored by their token's SHA-256. Adding one, replacing its
 * token and revoking it are recorded in the audit trail, each in its own transaction.
 */
export function directoriesRepository(db: Kysely<Database>) {
  const audit = (
    trx: Kysely<Database>,
    directory: Pick<DirectoriesTable, 'id' | 'team_id' | 'name'>,
    action: AuditAction,
    actor: Actor,
    now: number,
    detail: Record<string, unknown> = {},
  ) =>
    recordAudit(trx, {
      teamId: directory.team_id,
      actor,
      action,
      target: directory.name,
      detail: { directoryId: directory.id, ...detail },
      now,
    });

  return {
    /** A team's directories, by name. */
    list(teamId: string): Promise<DirectoriesTable[]> {
      return db
        .selectFrom('directories')
        .selectAll()
        .where('team_id', '=', teamId)
        .orderBy('name')
        .orderBy('id')
        .execute();
    },

    /** The directory whose token has this hash, if it still has it. */
    async byTokenHash(tokenHash: string): Promise<DirectoryCaller | undefined> {
      const row = await db
        .selectFrom('directories')
        .innerJoin('teams', 'teams.id', 'directories.team_id')
        .select([
          'directories.id',
          'directories.team_id',
          'directories.name',
          'directories.sign_in',
          'directories.created_by_name',
          'directories.created_by_email',
          'teams.name as team_name',
          'teams.disabled',
        ])
        .where('directories.token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row) return undefined;
      const { disabled, ...directory } = row;
      return { ...directory, team_disabled: disabled !== 0 };
    },

    /** Write down that the directory called, at most once per {@link LAST_USED_GRAIN_MS}. */
    async touch(id: string, now: number): Promise<void> {
      await db
        .updateTable('directories')
        .set({ last_used_at: now })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', now - LAST_USED_GRAIN_MS)]),
        )
        .execute();
    },

    async create(
      teamId: string,
      directory: { id: string; name: string; tokenHash: string; signIn: DirectorySignIn },
      actor: Actor,
      now: number,
    ): Promise<DirectoriesTable> {
      return db.transaction().execute(async (trx) => {
        const row: DirectoriesTable = {
          id: directory.id,
          team_id: teamId,
          name: directory.name,
          token_hash: directory.tokenHash,
          sign_in: directory.signIn,
          created_by_name: actor.name,
          created_by_email: actor.email,
          created_at: now,
          rotated_at: null,
          last_used_at: null,
        };
        await trx.insertInto('directories').values(row).execute();
        await audit(trx, row, 'directory.added', actor, now, { signIn: directory.signIn });
        return row;
      });
    },

    /** A new token (its hash) for the team's directory; the old one stops at once. Undefined: none. */
    async rotate(
      teamId: string,
      id: string,
      tokenHash: string,
      actor: Actor,
      now: number,
    ): Promise<DirectoriesTable | undefined> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('directories')
          .set({ token_hash: tokenHash, rotated_at: now })
          .where('id', '=', id)
          .where('team_id', '=', teamId)
          .returningAll()
          .executeTakeFirst();
        if (row) await audit(trx, row, 'directory.tokenRotated', actor, now);
        return row;
      });
    },

    /** Revoke the team's directory (its token stops at once); false when it has none of that id. */
    async remove(teamId: string, id: string, actor: Actor, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .deleteFrom('directories')
          .where('id', '=', id)
          .where('team_id', '=', teamId)
          .returningAll()
          .executeTakeFirst();
        if (row) await audit(trx, row, 'directory.revoked', actor, now);
        return row !== undefined;
      });
    },
  };
}

export type DirectoriesRepository = ReturnType<typeof directoriesRepository>;
