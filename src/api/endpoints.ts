import type { Static } from 'typebox';
import type { CheckReply, LoginBody, loginSchema } from '../contract/schemas/account';
import type { MessageReply } from '../contract/schemas/common';
import type { Policy, PoliciesReply } from '../contract/schemas/developer';
import type { DeviceCodeReply } from '../contract/schemas/device';
import type { DiscoveryReply } from '../contract/schemas/discovery';
import type { SsoStartBody } from '../contract/schemas/connections';
import type { JoinStartBody, JoinStarted, JoinVerifyBody } from '../contract/schemas/join-requests';
import type { ProviderStartCall, ProviderStartReply } from '../contract/schemas/external';
import type {
  ChangePasswordBody,
  PasswordOptionsReply,
  ResetBody,
  ResetRequestBody,
  SetPasswordBody,
} from '../contract/schemas/password';
import type { TeamPublicReply } from '../contract/schemas/team';
import type { TokenReply } from '../contract/schemas/token';
import type { PermissionsReply, RenameReply, SwitcherReply, UserinfoReply } from '../contract/schemas/user';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// The types of what the server takes and answers come from its schemas (src/contract/schemas/), so the
// two cannot drift apart. Imported as types only: they are erased, the bundle holds none of it.

/** The fixed client id of the portal's session → token exchange (spec §9). */
export const PORTAL_CLIENT_ID = 'acct-portal';

/** The discovery document; the login state keeps its addresses (spec §3 login-state record). */
export type Discovery = Static<typeof DiscoveryReply>;
export type CheckLoginResponse = Static<typeof CheckReply>;
export type TokenResponse = Static<typeof TokenReply>;
/** User info from the user-info endpoint (spec §3). */
export type UserInfo = Static<typeof UserinfoReply>;
/** Team public details (spec §3): the presence of an option object enables that sign-in method. */
export type TeamPublic = Static<typeof TeamPublicReply>;
export type SwitcherResponse = Static<typeof SwitcherReply>;
/** The answer of a call that only says what it did. */
export type Message = Static<typeof MessageReply>;

const here = () => location.origin;
const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, here());

/** GET the well-known discovery document (start-up). */
export function getDiscovery(ctx: ApiContext): Promise<Discovery> {
  return request<Discovery>(ctx, at(ctx, '/.well-known/openid-configuration'));
}

/** POST /account/check: is there a signed-in session? */
export function checkLogin(ctx: ApiContext): Promise<CheckLoginResponse> {
  return request<CheckLoginResponse>(ctx, at(ctx, '/account/check'), { method: 'POST' });
}

/** POST the token endpoint: exchange the caller's own session for an access token. */
export function exchangeSession(
  ctx: ApiContext,
  tokenEndpoint: string,
  sessionId: string,
): Promise<TokenResponse> {
  return request<TokenResponse>(ctx, sameOriginAs(ctx, tokenEndpoint), {
    method: 'POST',
    form: { client_id: PORTAL_CLIENT_ID, sessionId, grant_type: 'device_code' },
  });
}

/** GET the user-info endpoint (bearer). */
export function getUserInfo(ctx: ApiContext, userinfoEndpoint: string): Promise<UserInfo> {
  return request<UserInfo>(ctx, sameOriginAs(ctx, userinfoEndpoint));
}

/** GET /api/team/public/{team}: a team's public details by name or id. */
export function getTeamPublic(ctx: ApiContext, team: string): Promise<TeamPublic> {
  return request<TeamPublic>(ctx, at(ctx, `/api/team/public/${encodeURIComponent(team)}`));
}

/** GET /api/switcher (bearer): the dashboard address, if any. */
export function getSwitcher(ctx: ApiContext): Promise<SwitcherResponse> {
  return request<SwitcherResponse>(ctx, at(ctx, '/api/switcher'));
}

export type LoginRequest = Static<typeof LoginBody>;

/** Signed in, or `{twoStep: {methods, enrol}}`: a second step is needed first (no session yet). */
export type LoginAnswer = Static<(typeof loginSchema)['response'][200]>;

/** POST /account/login: 200 signs in (new session cookie) or asks for a second step; 403 locked; other 4xx invalid. */
export function login(ctx: ApiContext, body: LoginRequest): Promise<LoginAnswer> {
  return request<LoginAnswer>(ctx, at(ctx, '/account/login'), { method: 'POST', json: body });
}

export type ProviderKind = 'google' | 'azure' | 'auth0' | 'apple';

/**
 * `returnUrl`: a path on the issuer, or an address on a page the issuer trusts (its CORS origins);
 * `invitation`: the link being accepted, when the provider's account joins the team.
 */
export type ProviderStart = Static<typeof ProviderStartCall>;

/**
 * POST /account/{provider}/start: the issuer address that starts a provider sign-in, for the page to
 * navigate to (a navigation, unlike a form post's redirect, is not limited by the page's `form-action`).
 */
export function startProviderSignIn(
  ctx: ApiContext,
  provider: ProviderKind,
  body: ProviderStart,
): Promise<Static<typeof ProviderStartReply>> {
  return request<Static<typeof ProviderStartReply>>(ctx, at(ctx, `/account/${provider}/start`), {
    method: 'POST',
    json: body,
  });
}

/**
 * POST /account/sso/start: where to go to sign in through the single sign-on the address's domain
 * names (404 `noConnection` when it names none).
 */
export function startSsoSignIn(ctx: ApiContext, body: SsoStartBody): Promise<{ location: string }> {
  return request<{ location: string }>(ctx, at(ctx, '/account/sso/start'), { method: 'POST', json: body });
}

/** GET /account/sso/team: the team a work address's domain signs in to (404 `noTeam`: none). */
export function findSsoTeam(ctx: ApiContext, domain: string): Promise<{ name: string }> {
  const query = new URLSearchParams({ domain });
  return request<{ name: string }>(ctx, at(ctx, `/account/sso/team?${query.toString()}`));
}

/**
 * GET /account/join/team: the team a person at this domain may ask to join (404 `noTeam`: none) —
 * its verified domain, not signing in through single sign-on.
 */
export function findJoinTeam(
  ctx: ApiContext,
  domain: string,
): Promise<{ name: string; displayName: string }> {
  const query = new URLSearchParams({ domain });
  return request<{ name: string; displayName: string }>(
    ctx,
    at(ctx, `/account/join/team?${query.toString()}`),
  );
}

/** POST /account/join: a code is mailed when the address may ask; 202 with an id for every address. */
export function askToJoin(ctx: ApiContext, body: JoinStartBody): Promise<JoinStarted> {
  return request<JoinStarted>(ctx, at(ctx, '/account/join'), { method: 'POST', json: body });
}

/** POST /account/join/verify: 202; 400 `wrongCode` at `code`; 429 `locked`. */
export function verifyJoinCode(ctx: ApiContext, body: JoinVerifyBody): Promise<unknown> {
  return request<unknown>(ctx, at(ctx, '/account/join/verify'), { method: 'POST', json: body });
}

/** POST /api/user/password/request: the same answer whether or not the account exists. */
export function requestPasswordReset(
  ctx: ApiContext,
  body: Static<typeof ResetRequestBody>,
): Promise<Message> {
  return request<Message>(ctx, at(ctx, '/api/user/password/request'), { method: 'POST', json: body });
}

export type ResetPasswordRequest = Static<typeof ResetBody>;

/** POST /api/user/password/reset: 400 `{message}` policy text; 401 team/user mismatch; 410 token gone. */
export function resetPassword(ctx: ApiContext, body: ResetPasswordRequest): Promise<Message> {
  return request<Message>(ctx, at(ctx, '/api/user/password/reset'), { method: 'POST', json: body });
}

/** The permissions the server knows (spec §3): a map of name → granted. */
export type Permissions = Static<typeof PermissionsReply>;

/** GET /api/user/permissions (bearer). */
export function getPermissions(ctx: ApiContext): Promise<Permissions> {
  return request<Permissions>(ctx, at(ctx, '/api/user/permissions'));
}

/** Password options (spec §3). */
export type PasswordOptions = Static<typeof PasswordOptionsReply>;

/** GET /api/user/password (bearer). */
export function getPasswordOptions(ctx: ApiContext): Promise<PasswordOptions> {
  return request<PasswordOptions>(ctx, at(ctx, '/api/user/password'));
}

/** PUT's body (a first password), or POST's (a password exists: `oldPassword` too). */
export type PasswordChange = Static<typeof SetPasswordBody> &
  Partial<Pick<Static<typeof ChangePasswordBody>, 'oldPassword' | 'signOutOthers'>>;

/** POST (a password exists; `oldPassword` required) or PUT (none yet) /api/user/password. */
export function savePassword(ctx: ApiContext, body: PasswordChange, hasPassword: boolean): Promise<Message> {
  return request<Message>(ctx, at(ctx, '/api/user/password'), {
    method: hasPassword ? 'POST' : 'PUT',
    json: body,
  });
}

/** POST /api/user: the user's name. */
export function saveName(ctx: ApiContext, name: string): Promise<Static<typeof RenameReply>> {
  return request<Static<typeof RenameReply>>(ctx, at(ctx, '/api/user'), { method: 'POST', json: { name } });
}

export type ProviderName = 'Google' | 'AzureAD' | 'Apple' | 'Auth0';

/** Where the Connect form for a provider posts (`POST /api/external/{Provider}`, anti-forgery field). */
export function connectFormAction(ctx: ApiContext, provider: ProviderName): string {
  return at(ctx, `/api/external/${provider}`);
}

/** DELETE /api/user/password/{Provider}: 409 when it is the only sign-in option, 404 not connected. */
export function disconnectProvider(ctx: ApiContext, provider: ProviderName): Promise<Message> {
  return request<Message>(ctx, at(ctx, `/api/user/password/${provider}`), { method: 'DELETE' });
}

/** A policy definition (spec §3): its name is the scope a token can carry. */
export type PolicyDefinition = Static<typeof Policy>;

/** GET /policy/raw?showinternal=false (bearer). */
export function getPolicies(ctx: ApiContext): Promise<Static<typeof PoliciesReply>> {
  return request<Static<typeof PoliciesReply>>(ctx, at(ctx, '/policy/raw?showinternal=false'));
}

/** Where the developer-tools form posts (`POST /home/token`: anti-forgery field and one `scope` per policy). */
export function tokenFormAction(ctx: ApiContext): string {
  return at(ctx, '/home/token');
}

/** The device authorization a QR code carries (RFC 8628 shape). */
export type DeviceCode = Static<typeof DeviceCodeReply>;

/** POST /api/DeviceCode/generate (bearer). */
export function generateDeviceCode(ctx: ApiContext): Promise<DeviceCode> {
  return request<DeviceCode>(ctx, at(ctx, '/api/DeviceCode/generate'), { method: 'POST' });
}

/** POST /account/logout: revoke the session server-side. */
export function logout(ctx: ApiContext): Promise<unknown> {
  return request<unknown>(ctx, at(ctx, '/account/logout'), { method: 'POST', form: {} });
}

/**
 * Discovery gives absolute endpoint addresses; when they are on the page's own origin, call them by path
 * so they are treated like every other relative call (anti-forgery header included).
 */
function sameOriginAs(ctx: ApiContext, endpoint: string): string {
  const url = new URL(endpoint, ctx.issuer);
  return url.origin === here() ? `${url.pathname}${url.search}` : url.href;
}
