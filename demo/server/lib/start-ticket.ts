import { jwtVerify, SignJWT } from 'jose';
import { safeReturnUrl } from '../../../src/contract/return-url';
import type { ProviderKind } from '../db/schema';
import type { Clock } from './clock';
import { hmac } from './crypto';

/** Who the sign-in goes through: a provider of the team's, or (`sso`) one of its connections. */
export type StartKind = ProviderKind | 'sso';

/** What a provider sign-in starts with, as the anti-forgery-checked call accepted it. */
export interface StartRequest {
  kind: StartKind;
  teamId: string;
  returnUrl: string | null;
  maxAge: number | null;
  /** An invitation the sign-in accepts (its link was checked when the ticket was issued). */
  invitationId: string | null;
  /** The connection a single sign-on goes through. */
  connectionId?: string;
}

/** Long enough for a slow page to navigate; a ticket grants nothing but starting the round trip. */
const TICKET_SECONDS = 120;
const AUDIENCE = 'acct:provider-start';

/**
 * Provider sign-in starts in two steps so that it works from a page whose CSP `form-action` names only
 * the issuer: a call (under the usual anti-forgery rule) checks the request and answers with an issuer
 * address carrying a signed, short-lived ticket; the element navigates the top-level page there (which
 * `form-action` does not govern), and that address starts the flow — setting the flow cookie first-party
 * — and redirects to the provider. The ticket is an HMAC JWT under a key derived for this use alone, so
 * no other token of the server can pass for one.
 */
export class StartTickets {
  private readonly key: Uint8Array;

  constructor(
    secret: Buffer,
    private readonly clock: Clock,
  ) {
    this.key = Buffer.from(hmac(secret, 'provider-start-ticket'), 'base64url');
  }

  async issue(start: StartRequest): Promise<string> {
    const now = Math.floor(this.clock.now() / 1000);
    return new SignJWT({
      kind: start.kind,
      ret: start.returnUrl,
      max: start.maxAge,
      inv: start.invitationId,
      con: start.connectionId,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'acct-start+jwt' })
      .setSubject(start.teamId)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + TICKET_SECONDS)
      .sign(this.key);
  }

  /** The request a ticket carries, or null when it is forged, expired or for another provider. */
  async read<K extends StartKind>(ticket: string, kind: K): Promise<(StartRequest & { kind: K }) | null> {
    try {
      const { payload } = await jwtVerify(ticket, this.key, {
        algorithms: ['HS256'],
        typ: 'acct-start+jwt',
        audience: AUDIENCE,
        currentDate: new Date(this.clock.now()),
      });
      if (payload.kind !== kind || typeof payload.sub !== 'string') return null;
      return {
        kind,
        teamId: payload.sub,
        returnUrl: typeof payload.ret === 'string' ? payload.ret : null,
        maxAge: typeof payload.max === 'number' ? payload.max : null,
        invitationId: typeof payload.inv === 'string' ? payload.inv : null,
        ...(typeof payload.con === 'string' ? { connectionId: payload.con } : {}),
      };
    } catch {
      return null;
    }
  }
}

/**
 * Where a sign-in may return: a path on the issuer (the portal's ReturnUrl rule), or an address on an
 * origin the server trusts (`CORS_ORIGINS`: a partner page that embeds `<acct-login>`), checked by the
 * same rule against that origin. Anything else: null (the portal's `/`).
 */
export function returnTarget(
  value: string | null | undefined,
  issuerOrigin: string,
  trusted: readonly string[],
): string | null {
  if (!value) return null;
  if (value.startsWith('/')) return safeReturnUrl(value, issuerOrigin);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.href !== value || !trusted.includes(url.origin)) return null;
  const path = safeReturnUrl(`${url.pathname}${url.search}${url.hash}`, url.origin);
  return path ? `${url.origin}${path}` : null;
}
