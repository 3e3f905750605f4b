import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

/** The fixed client id of the portal's session → token exchange (spec §9). */
export const PORTAL_CLIENT_ID = 'acct-portal';

/** The identity-provider addresses kept after discovery (spec §3 login-state record). */
export interface Discovery {
  issuer: string;
  userinfo_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

export interface CheckLoginResponse {
  authenticated: boolean;
  session?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type?: string;
  expires_in?: number;
  id_token?: string;
}

/** User info from the user-info endpoint (spec §3). */
export interface UserInfo {
  sub: string;
  name: string;
  email: string;
  created_at: string;
  team: string;
  team_id: string;
}

/** Team public details (spec §3): the presence of an option object enables that sign-in method. */
export interface TeamPublic {
  name?: string;
  displayName?: string;
  teamDisabled: boolean;
  localOptions?: Record<string, unknown> | null;
  googleOptions?: Record<string, unknown> | null;
  azureOptions?: Record<string, unknown> | null;
  auth0Options?: { displayName: string } | null;
}

export interface SwitcherResponse {
  dashboard?: string | null;
}

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

export interface LoginRequest {
  teamName: string;
  email: string;
  password: string;
}

/** POST /account/login: 200 signs in (new session cookie); 403 locked; other 4xx invalid. */
export function login(ctx: ApiContext, body: LoginRequest): Promise<{ authenticated: boolean }> {
  return request<{ authenticated: boolean }>(ctx, at(ctx, '/account/login'), { method: 'POST', json: body });
}

export type ProviderKind = 'google' | 'azure' | 'auth0';

export interface ProviderStart {
  teamName: string;
  /** A path on the issuer, or an address on a page the issuer trusts (its CORS origins). */
  returnUrl?: string;
  maxAge?: string;
}

/**
 * POST /account/{provider}/start: the issuer address that starts a provider sign-in, for the page to
 * navigate to (a navigation, unlike a form post's redirect, is not limited by the page's `form-action`).
 */
export function startProviderSignIn(
  ctx: ApiContext,
  provider: ProviderKind,
  body: ProviderStart,
): Promise<{ location: string }> {
  return request<{ location: string }>(ctx, at(ctx, `/account/${provider}/start`), {
    method: 'POST',
    json: body,
  });
}

/** POST /api/user/password/request: the same answer whether or not the account exists. */
export function requestPasswordReset(
  ctx: ApiContext,
  body: { teamName: string; userName: string; returnUrl?: string },
): Promise<unknown> {
  return request<unknown>(ctx, at(ctx, '/api/user/password/request'), { method: 'POST', json: body });
}

export interface ResetPasswordRequest {
  teamName: string;
  userId: string;
  token: string;
  newPassword: string;
}

/** POST /api/user/password/reset: 400 `{message}` policy text; 401 team/user mismatch; 410 token gone. */
export function resetPassword(ctx: ApiContext, body: ResetPasswordRequest): Promise<unknown> {
  return request<unknown>(ctx, at(ctx, '/api/user/password/reset'), { method: 'POST', json: body });
}

/** The permissions the server knows (spec §3): a map of name → granted. */
export type Permissions = Record<string, boolean>;

/** GET /api/user/permissions (bearer). */
export function getPermissions(ctx: ApiContext): Promise<Permissions> {
  return request<Permissions>(ctx, at(ctx, '/api/user/permissions'));
}

/** Password options (spec §3). */
export interface PasswordOptions {
  hasPassword: boolean;
  password_changed: string | null;
  externalAccounts: Array<{ providerName: string; userName: string }>;
}

/** GET /api/user/password (bearer). */
export function getPasswordOptions(ctx: ApiContext): Promise<PasswordOptions> {
  return request<PasswordOptions>(ctx, at(ctx, '/api/user/password'));
}

export interface PasswordChange {
  oldPassword?: string;
  newPassword: string;
  confirmNewPassword: string;
}

/** POST (a password exists; `oldPassword` required) or PUT (none yet) /api/user/password. */
export function savePassword(ctx: ApiContext, body: PasswordChange, hasPassword: boolean): Promise<unknown> {
  return request<unknown>(ctx, at(ctx, '/api/user/password'), {
    method: hasPassword ? 'POST' : 'PUT',
    json: body,
  });
}

/** POST /api/user: the user's name. */
export function saveName(ctx: ApiContext, name: string): Promise<{ name: string }> {
  return request<{ name: string }>(ctx, at(ctx, '/api/user'), { method: 'POST', json: { name } });
}

export type ProviderName = 'Google' | 'AzureAD' | 'Auth0';

/** Where the Connect form for a provider posts (`POST /api/external/{Provider}`, anti-forgery field). */
export function connectFormAction(ctx: ApiContext, provider: ProviderName): string {
  return at(ctx, `/api/external/${provider}`);
}

/** DELETE /api/user/password/{Provider}: 409 when it is the only sign-in option, 404 not connected. */
export function disconnectProvider(ctx: ApiContext, provider: ProviderName): Promise<unknown> {
  return request<unknown>(ctx, at(ctx, `/api/user/password/${provider}`), { method: 'DELETE' });
}

/** A policy definition (spec §3): its name is the scope a token can carry. */
export interface PolicyDefinition {
  name: string;
  description: string;
  scopes: string[];
}

/** GET /policy/raw?showinternal=false (bearer). */
export function getPolicies(ctx: ApiContext): Promise<PolicyDefinition[]> {
  return request<PolicyDefinition[]>(ctx, at(ctx, '/policy/raw?showinternal=false'));
}

/** Where the developer-tools form posts (`POST /home/token`: anti-forgery field and one `scope` per policy). */
export function tokenFormAction(ctx: ApiContext): string {
  return at(ctx, '/home/token');
}

/** The device authorization a QR code carries (RFC 8628 shape). */
export interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  expires_in: number;
  interval: number;
}

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
