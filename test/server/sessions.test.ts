import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { TestSmtp } from '../support/smtp';
import { addUser } from '../support/team-admin';
import { createTestApp, tokenFor, type TestApp } from '../support/test-server';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

let smtp: TestSmtp;
let t: TestApp;
before(async () => {
  smtp = await TestSmtp.start();
  t = await createTestApp({ SMTP_URL: smtp.url, SESSION_ADDRESSES: 'true' });
  for (const name of ['erin', 'finn', 'gus']) await addPasswordUser(`${name}@acme.test`, name);
});

/** A member of acme who signs in with the demo password (and has signed in with no browser yet). */
async function addPasswordUser(email: string, name: string) {
  const id = await addUser(t, { email, name, permissions: ['SPOKE'] });
  const hash = await t.app.services.hasher.hash(DEMO_PASSWORD);
  await t.db.kysely
    .updateTable('users')
    .set({ password_hash: hash, password_changed_at: t.clock.now() - 60_000 })
    .where('id', '=', id)
    .execute();
}
after(async () => {
  await t.close();
  await smtp.close();
});

interface Browser {
  cookie: string;
  xsrf: string;
  accessToken: string;
}

const cookieValue = (setCookie: string | string[] | undefined, name: string) =>
  [setCookie ?? []]
    .flat()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** A browser signs in with the password form, as the sign-in screen does, and exchanges its token. */
async function signIn(
  email: string,
  userAgent: string,
  team = 'acme',
  password = DEMO_PASSWORD,
): Promise<Browser> {
  const login = await t.app.inject({
    method: 'POST',
    url: '/account/login',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    payload: JSON.stringify({ teamName: team, email, password }),
  });
  assert.equal(login.statusCode, 200, login.body);
  const session = cookieValue(login.headers['set-cookie'], 'acct_session')!;
  const xsrf = decodeURIComponent(cookieValue(login.headers['set-cookie'], 'XSRF-TOKEN')!);
  const cookie = `acct_session=${session}; XSRF-TOKEN=${xsrf}`;
  const check = await t.app.inject({
    method: 'POST',
    url: '/account/check',
    headers: { cookie, 'x-xsrf-token': xsrf },
  });
  const exchange = await t.app.inject({
    method: 'POST',
    url: '/connect/token',
    headers: { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'device_code',
      client_id: 'acct-portal',
      sessionId: check.json().session,
    }).toString(),
  });
  assert.equal(exchange.statusCode, 200, exchange.body);
  return { cookie, xsrf, accessToken: exchange.json().access_token };
}

function call(method: 'GET' | 'POST' | 'DELETE', url: string, token?: string) {
  return t.app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

async function signedIn(browser: Browser): Promise<boolean> {
  // From an allowed origin: the anti-forgery rule is met whether or not the session still holds.
  const check = await t.app.inject({
    method: 'POST',
    url: '/account/check',
    headers: { cookie: browser.cookie, origin: 'https://suite.example.test' },
  });
  assert.equal(check.statusCode, 200, check.body);
  return check.json().authenticated === true;
}

interface ListedSession {
  id: string;
  browser: string | null;
  os: string | null;
  device: string | null;
  address: string | null;
  current: boolean;
  createdAt: string;
  lastActiveAt: string;
}

async function sessionsOf(token: string): Promise<ListedSession[]> {
  const response = await call('GET', '/api/user/sessions', token);
  assert.equal(response.statusCode, 200, response.body);
  return response.json().sessions;
}

describe('sessions', () => {
  it('lists every live session with its browser, system and address, and marks this device', async () => {
    const desktop = await signIn('erin@acme.test', CHROME_LINUX);
    const phone = await signIn('erin@acme.test', SAFARI_IPHONE);
    const listed = await sessionsOf(desktop.accessToken);
    assert.equal(listed.length, 2);
    const [newest, older] = listed;
    assert.deepEqual(
      { browser: newest!.browser, os: newest!.os, device: newest!.device, current: newest!.current },
      { browser: 'Mobile Safari', os: 'iOS', device: 'mobile', current: false },
    );
    assert.deepEqual(
      { browser: older!.browser, os: older!.os, current: older!.current },
      { browser: 'Chrome', os: 'Linux', current: true },
    );
    assert.equal(older!.address, '127.0.0.1');
    assert.ok(!Number.isNaN(Date.parse(older!.createdAt)) && !Number.isNaN(Date.parse(older!.lastActiveAt)));
    // The other browser sees the same two, itself as this device.
    const fromPhone = await sessionsOf(phone.accessToken);
    assert.deepEqual(
      fromPhone.map((s) => s.current),
      [true, false],
    );
  });

  it('ends another session: its cookie and its token stop at once', async () => {
    const mine = await signIn('ada@acme.test', CHROME_LINUX);
    const other = await signIn('ada@acme.test', FIREFOX_WINDOWS);
    // The other token is in use (and its caller kept by the bearer read cache) before it is ended.
    assert.equal((await call('GET', '/api/user/permissions', other.accessToken)).statusCode, 200);
    assert.equal((await call('GET', '/api/user/permissions', other.accessToken)).statusCode, 200);
    const target = (await sessionsOf(mine.accessToken)).find((s) => !s.current)!;
    const ended = await call('DELETE', `/api/user/sessions/${target.id}`, mine.accessToken);
    assert.equal(ended.statusCode, 204);
    assert.equal((await call('GET', '/api/user/permissions', other.accessToken)).statusCode, 401);
    assert.equal(await signedIn(other), false);
    assert.equal(await signedIn(mine), true);
    // Ended once: a second time it is no longer there.
    assert.equal((await call('DELETE', `/api/user/sessions/${target.id}`, mine.accessToken)).statusCode, 404);
    const events = (await call('GET', '/api/user/activity', mine.accessToken)).json().events;
    assert.equal(events[0].kind, 'sessionEnded');
    assert.equal(events[0].browser, 'Firefox');
  });

  it('does not end the current session from the list (409 current)', async () => {
    const mine = await signIn('ada@acme.test', CHROME_LINUX);
    const own = (await sessionsOf(mine.accessToken)).find((s) => s.current)!;
    const response = await call('DELETE', `/api/user/sessions/${own.id}`, mine.accessToken);
    assert.equal(response.statusCode, 409);
    assert.equal(response.json().code, 'current');
    assert.equal(await signedIn(mine), true);
  });

  it('signs out everywhere else and keeps this session', async () => {
    const mine = await signIn('carol@globex.test', CHROME_LINUX, 'globex');
    const second = await signIn('carol@globex.test', FIREFOX_WINDOWS, 'globex');
    const third = await signIn('carol@globex.test', SAFARI_IPHONE, 'globex');
    const response = await call('POST', '/api/user/sessions/end-others', mine.accessToken);
    assert.equal(response.statusCode, 200);
    assert.ok(response.json().ended >= 2);
    assert.equal(await signedIn(second), false);
    assert.equal(await signedIn(third), false);
    assert.equal((await call('GET', '/api/user/permissions', third.accessToken)).statusCode, 401);
    assert.deepEqual(
      (await sessionsOf(mine.accessToken)).map((s) => s.current),
      [true],
    );
    const events = (await call('GET', '/api/user/activity', mine.accessToken)).json().events;
    assert.equal(events[0].kind, 'otherSessionsEnded');
  });

  it("answers 404 for another user's session, and ends nothing", async () => {
    const ada = await signIn('ada@acme.test', CHROME_LINUX);
    const bob = await signIn('erin@acme.test', FIREFOX_WINDOWS);
    const bobs = await sessionsOf(bob.accessToken);
    for (const session of bobs) {
      const response = await call('DELETE', `/api/user/sessions/${session.id}`, ada.accessToken);
      assert.equal(response.statusCode, 404);
    }
    assert.equal((await call('DELETE', '/api/user/sessions/made-up', ada.accessToken)).statusCode, 404);
    assert.equal(await signedIn(bob), true);
    // Ada's list never shows Bob's sessions.
    const adas = new Set((await sessionsOf(ada.accessToken)).map((s) => s.id));
    assert.ok(bobs.every((s) => !adas.has(s.id)));
  });

  it('needs a valid token on every route', async () => {
    for (const [method, url] of [
      ['GET', '/api/user/sessions'],
      ['DELETE', '/api/user/sessions/x'],
      ['POST', '/api/user/sessions/end-others'],
      ['GET', '/api/user/activity'],
    ] as const) {
      assert.equal((await call(method, url)).statusCode, 401, `${method} ${url}`);
      assert.equal((await call(method, url, 'not.a.token')).statusCode, 401, `${method} ${url}`);
    }
  });
});

describe('changing the password', () => {
  it('ends the other sessions by default, and keeps them when asked to', async () => {
    const change = (browser: Browser, signOutOthers?: boolean) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/password',
        headers: { authorization: `Bearer ${browser.accessToken}`, 'content-type': 'application/json' },
        payload: JSON.stringify({
          oldPassword: DEMO_PASSWORD,
          newPassword: DEMO_PASSWORD,
          confirmNewPassword: DEMO_PASSWORD,
          ...(signOutOthers === undefined ? {} : { signOutOthers }),
        }),
      });
    const mine = await signIn('erin@acme.test', CHROME_LINUX);
    const other = await signIn('erin@acme.test', FIREFOX_WINDOWS);
    assert.equal((await change(mine, false)).statusCode, 200);
    assert.equal(await signedIn(other), true);
    assert.equal((await change(mine)).statusCode, 200);
    assert.equal(await signedIn(other), false);
    assert.equal(await signedIn(mine), true);
  });
});

describe('security activity', () => {
  it("shows a failed sign-in to the address's owner, and to no one else", async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/account/login',
      headers: { 'content-type': 'application/json', 'user-agent': FIREFOX_WINDOWS },
      payload: JSON.stringify({ teamName: 'globex', email: 'carol@globex.test', password: 'not-it-at-all' }),
    });
    assert.equal(wrong.statusCode, 401);
    const carol = await tokenFor(t.app, 'carol@globex.test', 'globex');
    const events = (await call('GET', '/api/user/activity', carol.accessToken)).json().events as Array<
      Record<string, unknown>
    >;
    const failed = events.find((e) => e.kind === 'signIn' && e.success === false);
    assert.ok(failed, JSON.stringify(events));
    assert.equal(failed.method, 'password');
    assert.equal(failed.browser, 'Firefox');
    // Ada's log has none of Carol's events.
    const ada = await tokenFor(t.app, 'ada@acme.test');
    const adas = (await call('GET', '/api/user/activity', ada.accessToken)).json().events as Array<{
      id: string;
    }>;
    const carols = new Set(events.map((e) => e.id));
    assert.ok(adas.length > 0 && adas.every((e) => !carols.has(e.id)));
  });

  it('records password changes, newest first, a page at a time', async () => {
    const browser = await signIn('ada@acme.test', CHROME_LINUX);
    for (let i = 0; i < 3; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/password',
        headers: { authorization: `Bearer ${browser.accessToken}`, 'content-type': 'application/json' },
        payload: JSON.stringify({
          oldPassword: DEMO_PASSWORD,
          newPassword: DEMO_PASSWORD,
          confirmNewPassword: DEMO_PASSWORD,
        }),
      });
      assert.equal(response.statusCode, 200, response.body);
    }
    const first = (await call('GET', '/api/user/activity?limit=2', browser.accessToken)).json();
    assert.deepEqual(
      first.events.map((e: { kind: string }) => e.kind),
      ['passwordChanged', 'passwordChanged'],
    );
    assert.ok(first.next);
    const second = (
      await call(
        'GET',
        `/api/user/activity?limit=2&cursor=${encodeURIComponent(first.next)}`,
        browser.accessToken,
      )
    ).json();
    assert.equal(second.events[0].kind, 'passwordChanged');
    assert.ok(second.events.every((e: { id: string }) => e.id < first.events[1].id));
    assert.equal((await call('GET', '/api/user/activity?limit=0', browser.accessToken)).statusCode, 400);
    assert.equal((await call('GET', '/api/user/activity?limit=101', browser.accessToken)).statusCode, 400);
  });

  it('purges events after 90 days', async () => {
    const browser = await signIn('gus@acme.test', CHROME_LINUX);
    const before = (await call('GET', '/api/user/activity', browser.accessToken)).json().events;
    assert.ok(before.length > 0);
    t.clock.advance(91 * 24 * 3600_000);
    try {
      const fresh = await tokenFor(t.app, 'gus@acme.test');
      const after = (await call('GET', '/api/user/activity', fresh.accessToken)).json().events;
      assert.deepEqual(after, []);
      // Gone from the database, not only hidden: moving the clock back shows nothing either.
      t.clock.advance(-91 * 24 * 3600_000);
      const back = await tokenFor(t.app, 'gus@acme.test');
      assert.deepEqual((await call('GET', '/api/user/activity', back.accessToken)).json().events, []);
    } finally {
      t.clock.offset = 0;
    }
  });
});

describe('new-device mail', () => {
  it('mails a sign-in from a browser the account has not used, in its language', async () => {
    const edge =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0';
    // The account's first browser tells nothing: no mail.
    await signIn('finn@acme.test', CHROME_LINUX);
    await assert.rejects(smtp.next('finn@acme.test', /sign-in/i, 1000));
    const login = t.app.inject({
      method: 'POST',
      url: '/account/login',
      headers: { 'content-type': 'application/json', 'user-agent': edge, 'accept-language': 'de' },
      payload: JSON.stringify({ teamName: 'acme', email: 'finn@acme.test', password: DEMO_PASSWORD }),
    });
    const mail = await smtp.next('finn@acme.test', /Neue Anmeldung/);
    assert.equal((await login).statusCode, 200);
    assert.match(mail.text, /Edge, Mac OS/, mail.text);
    assert.match(mail.text, /\/manage\/sessions/);
    // The same browser again: no second mail.
    await signIn('finn@acme.test', edge);
    await assert.rejects(smtp.next('finn@acme.test', /Neue Anmeldung/, 1500));
  });
});
