import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Team } from '../db/schema';
import { recordSignIn } from './activity';
import { beginSessionUnlessSecondStep } from './session';

/**
 * Someone else vouched for the person — a provider of the team's, or its company's identity provider
 * through a connection: a session and on to `returnUrl`, or — the team requiring two-step sign-in — a
 * pending sign-in, and the sign-in screen takes the second step (or the enrolment). A provider such as
 * Google is one step, as a password is: the user's own two-step sign-in applies after it too. The
 * company's identity provider is the team's authority and runs its own second factors: only the
 * team's rule applies after it (`method` 'sso').
 */
export async function finishFederatedSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
  team: Pick<Team, 'name' | 'require_two_step'>,
  userId: string,
  returnUrl: string | null,
  method: string,
) {
  const required = team.require_two_step === 1;
  const begun = await beginSessionUnlessSecondStep(
    request,
    reply,
    userId,
    ['fed'],
    required,
    method !== 'sso',
  );
  if (begun === 'session') {
    await recordSignIn(request, userId, method);
    return reply.redirect(returnUrl ?? '/', 303);
  }
  const query = new URLSearchParams({ TwoStep: begun });
  if (returnUrl?.startsWith('/')) query.set('ReturnUrl', returnUrl);
  return reply.redirect(`/login/${encodeURIComponent(team.name)}?${query}`, 303);
}

/**
 * Where a failed round trip lands: the team's sign-in screen (or the team step) with the error code,
 * keeping the ReturnUrl when it is a path on the issuer (a partner page's address cannot be one).
 */
export function signInFailed(
  reply: FastifyReply,
  teamName: string | null,
  code: string,
  returnUrl: string | null,
) {
  const target = teamName ? `/login/${encodeURIComponent(teamName)}` : '/login/team';
  const query = new URLSearchParams({ Error: code });
  if (returnUrl?.startsWith('/')) query.set('ReturnUrl', returnUrl);
  return reply.redirect(`${target}?${query}`, 303);
}
