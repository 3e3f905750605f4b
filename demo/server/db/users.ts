import type { Kysely } from 'kysely';
import { writeTerms } from './members';
import { sortKey } from './member-terms';
import { keptUntilChange, preparedQuery } from './prepared';
import type { Database, User } from './schema';

/** A user with their team's id and name: what tokens name (lib/tokens.ts `TokenSubject`). */
export interface Member {
  userId: string;
  teamId: string;
  teamName: string;
  name: string;
  email: string;
}

/** A user with what their mail needs: name, address, language, and the team's name, display name and brand. */
export interface MailAccount {
  id: string;
  name: string;
  email: string;
  language: string | null;
  team_name: string;
  display_name: string;
  brand: string | null;
}

/** What an access token's claims name: its user, the user's team and the session it came from. */
export interface TokenClaims {
  sub: string;
  team_id: string;
  sid?: string;
}

/** The holder of a token as stored: kept until the database changes (`findTokenHolder`). */
export interface TokenHolder {
  user: Readonly<User>;
  teamName: string;
  /** When the token's session ends (its absolute end), if it names one that is not revoked; else null. */
  sessionEndsAt: number | null;
}

/**
 * The user, the team name and the session's end in one statement, built once and kept per claims
 * object until any row changes (lib/bearer.ts says why: bearer routes run on every page of the apps).
 */
function tokenHolderLookup(db: Kysely<Database>) {
  const lookup = preparedQuery(db, ['sub', 'team', 'sid'], (p) =>
    db
      .selectFrom('users')
      .innerJoin('teams', 'teams.id', 'users.team_id')
      .selectAll('users')
      .select('teams.name as team_name')
      .select((eb) =>
        eb
          .selectFrom('sessions')
          .select('sessions.expires_at')
          .where('sessions.public_id', '=', p.sid)
          .whereRef('sessions.user_id', '=', 'users.id')
          .where('sessions.revoked_at', 'is', null)
          .as('session_expires_at'),
      )
      .where('users.id', '=', p.sub)
      .where('users.team_id', '=', p.team)
      // A disabled member's tokens stop at once: any write (disabling is one) makes this read again.
      .where('users.disabled_at', 'is', null),
  );
  return keptUntilChange(db, async (claims: Readonly<TokenClaims>): Promise<TokenHolder | undefined> => {
    const row = await lookup({ sub: claims.sub, team: claims.team_id, sid: claims.sid ?? '' });
    if (!row) return undefined;
    const { team_name: teamName, session_expires_at: sessionEndsAt, ...user } = row;
    return { user: Object.freeze(user), teamName, sessionEndsAt };
  });
}

/** The columns of a {@link MailAccount}. */
const MAIL_ACCOUNT = [
  'users.id',
  'users.name',
  'users.email',
  'users.language',
  'teams.name as team_name',
  'teams.display_name',
  'teams.brand',
] as const;

/** Users, with their team where a call needs it, and their permissions. */
export function usersRepository(db: Kysely<Database>) {
  // Built on first use: the statement is prepared against the migrated schema.
  let tokenHolder: ReturnType<typeof tokenHolderLookup> | undefined;

  const withTeam = () => db.selectFrom('users').innerJoin('teams', 'teams.id', 'users.team_id');
  /** The user `email` of `teamName`, when the team is enabled and offers password sign-in. */
  const withPasswordSignIn = (teamName: string, email: string) =>
    withTeam()
      .where('teams.name', '=', teamName)
      .where('teams.disabled', '=', 0)
      .where('teams.local_enabled', '=', 1)
      .where('users.email', '=', email);

  return {
    /**
     * The user who may sign in with a password as `email` in `teamName`: the team exists, is not
     * disabled and offers password sign-in. Whether they have a password, or are locked, is the
     * caller's to judge (after hashing either way).
     */
    findSignInCandidate(
      teamName: string,
      email: string,
    ): Promise<
      | (Pick<User, 'id' | 'password_hash' | 'locked' | 'language' | 'disabled_at'> & {
          require_two_step: number;
        })
      | undefined
    > {
      return withPasswordSignIn(teamName, email)
        .select([
          'users.id',
          'users.password_hash',
          'users.locked',
          'users.language',
          'users.disabled_at',
          'teams.require_two_step',
        ])
        .executeTakeFirst();
    },

    /** The user with what their mail needs (a notice about their own account). */
    findMailAccount(userId: string): Promise<MailAccount | undefined> {
      return withTeam().select(MAIL_ACCOUNT).where('users.id', '=', userId).executeTakeFirst();
    },

    /** The team's owners who can act (not disabled), with what their mail needs. */
    ownerMailAccounts(teamId: string): Promise<MailAccount[]> {
      return withTeam()
        .innerJoin('user_permissions', 'user_permissions.user_id', 'users.id')
        .select(MAIL_ACCOUNT)
        .where('users.team_id', '=', teamId)
        .where('user_permissions.permission', '=', 'OWNER')
        .where('users.disabled_at', 'is', null)
        .orderBy('users.email')
        .execute();
    },

    /** Whether the user's team requires two-step sign-in. */
    async teamRequiresTwoStep(userId: string): Promise<boolean> {
      const row = await withTeam()
        .select('teams.require_two_step')
        .where('users.id', '=', userId)
        .executeTakeFirst();
      return row?.require_two_step === 1;
    },

    /**
     * Who a reset request names: a user of an enabled team with password sign-in, not disabled (a
     * disabled member could not sign in with the new password anyway).
     */
    findResetRecipient(teamName: string, email: string): Promise<MailAccount | undefined> {
      return withPasswordSignIn(teamName, email)
        .where('users.disabled_at', 'is', null)
        .select(MAIL_ACCOUNT)
        .executeTakeFirst();
    },

    /**
     * The member `email` (or, with `byId`, the user of that id) of `teamName` when the team is enabled
     * and offers sign-in with a mailed code: what the mail needs, and what the sign-in judges after the
     * code (disabled, locked, the team's two-step rule).
     */
    findEmailCodeMember(
      teamName: string,
      who: { email: string } | { id: string },
    ): Promise<
      (MailAccount & Pick<User, 'locked' | 'disabled_at'> & { require_two_step: number }) | undefined
    > {
      const query = withTeam()
        .select([...MAIL_ACCOUNT, 'users.locked', 'users.disabled_at', 'teams.require_two_step'])
        .where('teams.name', '=', teamName)
        .where('teams.disabled', '=', 0)
        .where('teams.email_code_enabled', '=', 1);
      return (
        'id' in who ? query.where('users.id', '=', who.id) : query.where('users.email', '=', who.email)
      ).executeTakeFirst();
    },

    /** The user a reset link names, if they are in `teamName` and it offers password sign-in. */
    findResetAccount(userId: string, teamName: string): Promise<MailAccount | undefined> {
      return withTeam()
        .select(MAIL_ACCOUNT)
        .where('users.id', '=', userId)
        .where('teams.name', '=', teamName)
        .where('teams.local_enabled', '=', 1)
        .executeTakeFirst();
    },

    /** The user with their team's id and name, as tokens name them; never a disabled one. */
    async findMember(userId: string): Promise<Member | undefined> {
      const row = await withTeam()
        .select(['users.id', 'users.name', 'users.email', 'users.team_id', 'teams.name as team_name'])
        .where('users.id', '=', userId)
        .where('users.disabled_at', 'is', null)
        .executeTakeFirst();
      return (
        row && {
          userId: row.id,
          teamId: row.team_id,
          teamName: row.team_name,
          name: row.name,
          email: row.email,
        }
      );
    },

    /** The team's member with this (normalised) e-mail address. */
    findInTeamByEmail(teamId: string, email: string): Promise<User | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('email', '=', email)
        .executeTakeFirst();
    },

    /**
     * The user a token's claims name, in the team they name, with the team's name and the end of the
     * session they name. On SQLite the answer is kept per claims object until any row changes.
     */
    findTokenHolder(claims: Readonly<TokenClaims>): Promise<TokenHolder | undefined> {
      tokenHolder ??= tokenHolderLookup(db);
      return tokenHolder(claims);
    },

    /** The permissions granted to the user. */
    async permissionsOf(userId: string): Promise<Set<string>> {
      const rows = await db
        .selectFrom('user_permissions')
        .select('permission')
        .where('user_id', '=', userId)
        .execute();
      return new Set(rows.map((row) => row.permission));
    },

    /** Remember the language the user signs in with: their mail goes out in it. */
    async setLanguage(userId: string, language: string): Promise<void> {
      await db.updateTable('users').set({ language }).where('id', '=', userId).execute();
    },

    /** Store a stronger hash of the same password (at sign-in): not a password change. */
    async upgradePasswordHash(userId: string, hash: string): Promise<void> {
      await db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
    },

    /**
     * Set a new password, only if the user still has one (`has`: a change) or still has none (`none`: a
     * first password), so a racing change cannot be overwritten. Whether it was set.
     */
    async setPassword(userId: string, hash: string, now: number, guard: 'has' | 'none'): Promise<boolean> {
      const updated = await db
        .updateTable('users')
        .set({ password_hash: hash, password_changed_at: now })
        .where('id', '=', userId)
        .where('password_hash', guard === 'has' ? 'is not' : 'is', null)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    /** Rename the user: their sort key and search terms follow, in the same transaction. */
    async setName(userId: string, name: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const user = await trx
          .updateTable('users')
          .set({ name, name_key: sortKey(name) })
          .where('id', '=', userId)
          .returning(['team_id', 'email'])
          .executeTakeFirst();
        if (user) await writeTerms(trx, user.team_id, userId, name, user.email);
      });
    },

    /** Every successful sign-in (password, provider, invitation) is remembered for the member list. */
    async touchSignIn(userId: string, now: number): Promise<void> {
      await db.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', userId).execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
