import type {
  EmailCodeLinkBody,
  EmailCodeRequestBody,
  EmailCodeSent,
  EmailCodeSignedIn,
  EmailCodeVerifyBody,
} from '../contract/schemas/email-code';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// Sign-in with a code mailed to the member: asking for the mail, then the code (any browser) or the
// mail's link (the browser that asked, which its httpOnly cookie names). Types from the server's schemas.

export type { EmailCodeSent, EmailCodeSignedIn };

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);

/** POST /account/email-code: the same answer for every address; 403 `notOffered` or locked; 429. */
export function requestEmailCode(ctx: ApiContext, body: EmailCodeRequestBody): Promise<EmailCodeSent> {
  return request(ctx, at(ctx, '/account/email-code'), { method: 'POST', json: body });
}

/** POST /account/email-code/verify: signs in, or the second step waits; 401 `invalidCode`, 403, 410, 429. */
export function verifyEmailCode(ctx: ApiContext, body: EmailCodeVerifyBody): Promise<EmailCodeSignedIn> {
  return request(ctx, at(ctx, '/account/email-code/verify'), { method: 'POST', json: body });
}

/** POST /account/email-code/link: the mail's link; 409 `otherBrowser` (ask for the code), 410 `codeGone`. */
export function openEmailLink(ctx: ApiContext, body: EmailCodeLinkBody): Promise<EmailCodeSignedIn> {
  return request(ctx, at(ctx, '/account/email-code/link'), { method: 'POST', json: body });
}
