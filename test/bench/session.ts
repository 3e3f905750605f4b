import { DEMO_PASSWORD } from '../../demo/server/db/seed';

export interface BenchSession {
  /** The session cookie value. */
  token: string;
  /** The session-bound anti-forgery token. */
  xsrf: string;
  /** A ready `Cookie` header with both. */
  cookie: string;
  /** The portal's access token for the session (one hour). */
  accessToken: string;
}

/**
 * Sign a seeded user in over HTTP, as a browser would — sign-in, session check, session → token
 * exchange — so the bench needs no access to the server's database or keys.
 */
export async function signIn(url: string, email = 'ada@acme.test'): Promise<BenchSession> {
  const login = await fetch(`${url}/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ teamName: 'acme', email, password: DEMO_PASSWORD }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const cookies = new Map(
    login.headers.getSetCookie().map((line) => {
      const pair = line.split(';')[0]!;
      const eq = pair.indexOf('=');
      return [pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1))] as const;
    }),
  );
  const token = cookies.get('acct_session');
  const xsrf = cookies.get('XSRF-TOKEN');
  if (!token || !xsrf) throw new Error('sign-in set no session or XSRF cookie');
  const cookie = `acct_session=${token}; XSRF-TOKEN=${encodeURIComponent(xsrf)}`;
  const check = (await (
    await fetch(`${url}/account/check`, { method: 'POST', headers: { cookie, 'x-xsrf-token': xsrf } })
  ).json()) as { session?: string };
  if (!check.session) throw new Error('the new session does not check');
  const exchange = await fetch(`${url}/connect/token`, {
    method: 'POST',
    headers: { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'device_code',
      client_id: 'acct-portal',
      sessionId: check.session,
    }),
  });
  if (!exchange.ok) throw new Error(`token exchange failed: ${exchange.status} ${await exchange.text()}`);
  const { access_token: accessToken } = (await exchange.json()) as { access_token: string };
  return { token, xsrf, cookie, accessToken };
}
