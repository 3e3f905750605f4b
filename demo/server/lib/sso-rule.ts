import type { Repositories } from '../db/repositories';

/** The refusal of a password or passkey sign-in that the member's domain does not allow. */
export const SSO_REQUIRED = {
  message: 'this address signs in through its company’s single sign-on',
  code: 'ssoRequired',
} as const;

/**
 * Whether the member must sign in through their domain's connection: the domain is verified, routes to
 * an enabled connection, and requires it. The team's owners never must — a provider that fails or
 * is misconfigured must not lock the team out of fixing it. Asked only once the password or passkey
 * was right, so it says nothing about an address to someone who does not hold the account.
 */
export async function ssoRequired(repos: Repositories, userId: string): Promise<boolean> {
  const member = await repos.users.findMember(userId);
  if (!member) return false;
  const domain = member.email.slice(member.email.lastIndexOf('@') + 1);
  const [route] = await repos.domains.routes(member.teamId, domain);
  if (!route?.require_sso) return false;
  return !(await repos.users.permissionsOf(userId)).has('OWNER');
}
