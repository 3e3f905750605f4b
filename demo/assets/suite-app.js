import { logEvents } from './event-log.js';

logEvents(['acct-signed-out', 'acct-theme-change', 'acct-language-change', 'acct-navigate']);

/*
 * The suite app as an OpenID Connect relying party: oidc-client-ts (its browser build, the global
 * `oidc`) signs in through the portal's provider with the code flow and PKCE, refreshes with a refresh
 * token, and signs out through the provider's end_session. The demo's public client `acct-suite-app`
 * has this page as its redirect and post-logout address.
 */
const { UserManager, WebStorageStateStore } = globalThis.oidc;
const issuer = document.querySelector('acct-header').getAttribute('issuer');
const home = new URL('/suite-app.html', window.location.href).href;
const manager = new UserManager({
  authority: issuer,
  client_id: 'acct-suite-app',
  redirect_uri: home,
  post_logout_redirect_uri: home,
  scope: 'openid profile email offline_access',
  // offline_access (a refresh token) is granted with prompt=consent (OpenID Connect Core §11).
  prompt: 'consent',
  // Keep auth_time and amr in the profile: the page shows when and how the user signed in.
  filterProtocolClaims: false,
  userStore: new WebStorageStateStore({ store: window.sessionStorage }),
});

const element = (id) => document.getElementById(id);
const status = (text) => {
  element('oidc-status').textContent = text;
};
const time = (seconds) => new Date(seconds * 1000).toLocaleTimeString();

async function show(user) {
  const signedIn = Boolean(user && !user.expired);
  element('oidc-user').hidden = !signedIn;
  element('oidc-sign-in').hidden = signedIn;
  element('oidc-refresh').hidden = !signedIn;
  element('oidc-sign-out').hidden = !signedIn;
  if (!signedIn) return;
  const { profile } = user;
  element('oidc-name').textContent = profile.name ?? '';
  element('oidc-email').textContent = profile.email ?? '';
  element('oidc-team').textContent = profile.team ?? '';
  element('oidc-auth-time').textContent = profile.auth_time ? time(profile.auth_time) : '';
  element('oidc-amr').textContent = (profile.amr ?? []).join(', ');
  element('oidc-expires').textContent = user.expires_at ? time(user.expires_at) : '';
  const answer = await fetch(`${issuer}/connect/userinfo`, {
    headers: { authorization: `Bearer ${user.access_token}` },
  });
  const info = answer.ok ? await answer.json() : null;
  element('oidc-userinfo').textContent = info ? `${info.email} (${info.team})` : `error ${answer.status}`;
}

element('oidc-sign-in').addEventListener('click', () => {
  status('Going to the portal to sign in…');
  void manager.signinRedirect();
});
element('oidc-refresh').addEventListener('click', async () => {
  try {
    const user = await manager.signinSilent();
    await show(user);
    status(`Tokens refreshed at ${new Date().toLocaleTimeString()}.`);
  } catch (error) {
    await manager.removeUser();
    await show(null);
    status(`The refresh was refused (${error.message}): sign in again.`);
  }
});
element('oidc-sign-out').addEventListener('click', () => {
  status('Signing out through the portal…');
  // Some state, so the way back carries `state` and is told apart from a plain visit.
  void manager.signoutRedirect({ state: 'signed-out' });
});

// Back from the portal: a sign-in's answer (code or error) or a sign-out's (state only).
const answer = new URLSearchParams(window.location.search);
try {
  if (answer.has('code') || answer.has('error')) {
    await manager.signinCallback();
    status('Signed in through the portal.');
  } else if (answer.has('state')) {
    await manager.signoutCallback();
    status('Signed out of this app and the portal.');
  }
} catch (error) {
  status(`The portal's answer was refused: ${error.message}`);
} finally {
  if (answer.size) window.history.replaceState(null, '', home);
}
await show(await manager.getUser());
