/**
 * The React-only floor of `<acct-header>`: a header that asks the same server the same questions the
 * element asks before it can show who is signed in — discovery, the session check, the session → token
 * exchange, user info — and then renders the initials and the name. No elements, no shadow DOM, no i18n,
 * no stores, no menus: what any React header showing the signed-in user must at least do.
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface UserInfo {
  name: string;
  email: string;
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { credentials: 'include', ...init });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await response.json()) as T;
}

async function signedInUser(issuer: string): Promise<UserInfo | null> {
  const discovery = await json<{ token_endpoint: string; userinfo_endpoint: string }>(
    `${issuer}/.well-known/openid-configuration`,
  );
  const check = await json<{ authenticated: boolean; session?: string }>(`${issuer}/account/check`, {
    method: 'POST',
  });
  if (!check.authenticated || !check.session) return null;
  const token = await json<{ access_token: string }>(discovery.token_endpoint, {
    method: 'POST',
    body: new URLSearchParams({
      client_id: 'acct-portal',
      sessionId: check.session,
      grant_type: 'device_code',
    }),
  });
  return json<UserInfo>(discovery.userinfo_endpoint, {
    headers: { Authorization: `Bearer ${token.access_token}` },
  });
}

const initials = (name: string) =>
  name
    .trim()
    .split(/\s+/u)
    .slice(0, 2)
    .map((word) => Array.from(word)[0] ?? '')
    .join('')
    .toLocaleUpperCase();

function FloorHeader({ issuer }: { issuer: string }) {
  const [user, setUser] = useState<UserInfo | null>(null);
  useEffect(() => {
    signedInUser(issuer).then(setUser, () => setUser(null));
  }, [issuer]);
  return (
    <header>
      <a href="/">Home</a>
      {user ? (
        <button type="button" aria-label={`Account menu of ${user.name}`}>
          <span className="avatar" aria-hidden="true">
            {initials(user.name)}
          </span>
          <span aria-hidden="true">{user.name}</span>
        </button>
      ) : null}
    </header>
  );
}

const host = document.getElementById('floor');
if (host) createRoot(host).render(<FloorHeader issuer={host.dataset.issuer ?? location.origin} />);
