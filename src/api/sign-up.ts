import type { Static } from 'typebox';
import type {
  SignUpCompleteBody,
  SignUpStartBody,
  SignUpStarted,
  SignUpVerified,
  signUpTeamSchema,
} from '../contract/schemas/sign-up';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// Starting a team (the portal's own sign-up): the only caller of these endpoints is the sign-up screen,
// and the team area's checklist. Types only, from the server's schemas (see endpoints.ts).

export type { SignUpStarted, SignUpVerified };
export type TeamAddressCheck = Static<(typeof signUpTeamSchema)['response'][200]>;
export type SignUpCompletion = SignUpCompleteBody;

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);

/** GET /account/signup/team: whether a new team may take the address. */
export function checkTeamAddress(ctx: ApiContext, address: string): Promise<TeamAddressCheck> {
  return request(ctx, at(ctx, `/account/signup/team?${new URLSearchParams({ address })}`));
}

/** POST /account/signup: mail the code and link. 400 at a field; 429. */
export function startSignUp(ctx: ApiContext, body: SignUpStartBody): Promise<SignUpStarted> {
  return request(ctx, at(ctx, '/account/signup'), { method: 'POST', json: body });
}

/** POST /account/signup/verify: the code. 400 `wrongCode`; 429 `locked`. */
export function verifySignUp(ctx: ApiContext, signUpId: string, code: string): Promise<SignUpVerified> {
  return request(ctx, at(ctx, '/account/signup/verify'), { method: 'POST', json: { signUpId, code } });
}

/** POST /account/signup/link: the mail's link. 410 `signUpGone`. */
export function openSignUpLink(ctx: ApiContext, signUpId: string, token: string): Promise<SignUpVerified> {
  return request(ctx, at(ctx, '/account/signup/link'), { method: 'POST', json: { signUpId, token } });
}

/** POST /account/signup/complete: the team is made and its owner signed in. 409 `taken`; 410. */
export function completeSignUp(ctx: ApiContext, body: SignUpCompletion): Promise<unknown> {
  return request(ctx, at(ctx, '/account/signup/complete'), { method: 'POST', json: body });
}

/** DELETE /api/team/checklist (admin): the first-steps checklist is put away for good. */
export function dismissChecklist(ctx: ApiContext): Promise<unknown> {
  return request(ctx, at(ctx, '/api/team/checklist'), { method: 'DELETE' });
}
