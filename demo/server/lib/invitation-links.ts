import type { AcceptOutcome, InvitationForLink, InvitationsRepository } from '../db/invitations';
import type { NewMember } from '../db/members';
import { invitationState, type InvitationGone } from '../../../src/contract/team-rules';
import type { Clock } from './clock';
import { safeEqual, sha256 } from './crypto';
import { normaliseTeam } from './normalise';

/** What a link that no longer works says, by reason (the screens show the reason, translated). */
export const GONE: Record<InvitationGone, string> = {
  used: 'this invitation has been accepted already',
  revoked: 'this invitation was withdrawn',
  superseded: 'a newer invitation replaced this one',
  expired: 'this invitation has expired',
  invalid: 'this invitation link is not valid',
};
export const GONE_MESSAGE = 'this invitation link no longer works';

/**
 * The link an invitation's mail carries: the invitation screen (`/login/{team}/invite?id=…&token=…`).
 * Built from PUBLIC_URL, never from the request's Host header.
 */
export function invitationLink(publicUrl: string, teamName: string, id: string, token: string): string {
  return `${publicUrl}/login/${encodeURIComponent(teamName)}/invite?${new URLSearchParams({ id, token })}`;
}

/** An invitation hash the presented token is compared with when the link names none: the same work. */
const NO_HASH = sha256('no invitation');

/** What an invitation link carries. */
export interface InvitationLink {
  teamName: string;
  invitationId: string;
  token: string;
}

/** The invitee's side of invitations: links checked, invitations accepted (password or provider). */
export class InvitationLinks {
  constructor(
    private readonly invitations: InvitationsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The invitation a link names, checked: the team and id must match and the token's hash must equal
   * the stored one (compared in constant time, and compared even when nothing matched, so an unknown id
   * costs what a wrong token does). A wrong token learns nothing but `invalid`; the right one learns why
   * its invitation no longer works. A disabled team's invitations are `invalid`.
   */
  async checkLink(link: InvitationLink): Promise<{ found: InvitationForLink } | { gone: InvitationGone }> {
    const found = await this.invitations.findForLink(normaliseTeam(link.teamName), link.invitationId);
    const matches = safeEqual(found?.invitation.token_hash ?? NO_HASH, sha256(link.token));
    if (!found || !matches || found.team.disabled) return { gone: 'invalid' };
    const state = invitationState(found.invitation, this.clock.now());
    return state === 'pending' ? { found } : { gone: state };
  }

  /** The invited address of an invitation (whatever its state), if it exists. */
  emailOf(invitationId: string): Promise<string | undefined> {
    return this.invitations.emailOf(invitationId);
  }

  accept(
    invitationId: string,
    member: Omit<NewMember, 'email' | 'teamId' | 'permissions'>,
  ): Promise<AcceptOutcome> {
    return this.invitations.accept(invitationId, member);
  }
}
