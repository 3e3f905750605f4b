/**
 * How the members a team's directory (a SCIM client) adds sign in: through the team's single sign-on
 * connection (`sso`), or with a password they set from an invitation mail (`invitation`).
 */
export const DIRECTORY_SIGN_IN = ['sso', 'invitation'] as const;
export type DirectorySignIn = (typeof DIRECTORY_SIGN_IN)[number];
