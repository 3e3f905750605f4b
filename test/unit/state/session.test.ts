import { expect } from 'chai';
import { readCookie } from '../../../src/api/client';
import { checkLogin, getUserInfo, saveName } from '../../../src/api/endpoints';
import { createSessionStore, initials, LOGIN_RECHECK_MS, type Scheduler } from '../../../src/state/session';
import { serverReady } from '../support';

// The first request of a run starts the identity server.
before(serverReady);

/** Records timers instead of waiting an hour; `fire()` runs the pending one. */
class ManualScheduler implements Scheduler {
  pending: Array<{ fn: () => void; ms: number; handle: number }> = [];
  private next = 1;
  setTimeout(fn: () => void, ms: number) {
    const handle = this.next++;
    this.pending.push({ fn, ms, handle });
    return handle;
  }
  clearTimeout(handle: unknown) {
    this.pending = this.pending.filter((timer) => timer.handle !== handle);
  }
  fire() {
    const timer = this.pending.shift();
    timer?.fn();
  }
}

async function signIn(email: string): Promise<string> {
  const response = await fetch(`/__test/session?email=${encodeURIComponent(email)}`);
  expect(response.ok).to.equal(true);
  return ((await response.json()) as { publicId: string }).publicId;
}

/** End a session as another device would ("sign out everywhere else"): this browser keeps its cookies. */
async function endElsewhere(publicId: string) {
  const response = await fetch(`/__test/end-session?publicId=${encodeURIComponent(publicId)}`);
  expect(response.ok).to.equal(true);
}

/** Revoke the current session through the real logout call, behind the store's back. */
async function serverLogout() {
  const xsrf = readCookie(document.cookie, 'XSRF-TOKEN') ?? '';
  await fetch('/account/logout', {
    method: 'POST',
    headers: { 'X-XSRF-TOKEN': xsrf, Accept: 'application/json' },
  });
}

describe('state/session (spec §4 login state)', () => {
  afterEach(serverLogout);

  it('starts unknown with the logged-in flag false', () => {
    const store = createSessionStore(new ManualScheduler());
    expect(store.getState().status).to.equal('unknown');
    expect(store.getState().loggedIn).to.equal(false);
  });

  it('runs discovery, then the check, and is logged out without a session', async () => {
    const store = createSessionStore(new ManualScheduler());
    const loggedIn = await store.getState().configure(location.origin);
    expect(loggedIn).to.equal(false);
    const state = store.getState();
    expect(state.status).to.equal('loggedOut');
    expect(state.endpoints?.userinfo_endpoint).to.match(/\/connect\/userinfo$/);
    expect(state.user).to.equal(null);
    expect(state.accessToken).to.equal(null);
  });

  it('exchanges the session for a token, then loads user and team info, and re-checks hourly', async () => {
    await signIn('ada@acme.test');
    const scheduler = new ManualScheduler();
    const store = createSessionStore(scheduler);
    expect(await store.getState().configure(location.origin)).to.equal(true);
    const state = store.getState();
    expect(state.status).to.equal('loggedIn');
    expect(state.loggedIn).to.equal(true);
    expect(state.accessToken).to.be.a('string');
    expect(state.user).to.include({ name: 'Ada Lovelace', email: 'ada@acme.test', team: 'acme' });
    expect(state.team?.auth0Options).to.deep.equal({ displayName: 'Acme SSO' });
    expect(scheduler.pending.map((t) => t.ms)).to.deep.equal([LOGIN_RECHECK_MS]);
  });

  it('goes logged out when the hourly re-check fails (session revoked meanwhile)', async () => {
    await signIn('carol@globex.test');
    const scheduler = new ManualScheduler();
    const store = createSessionStore(scheduler);
    expect(await store.getState().configure(location.origin)).to.equal(true);
    await serverLogout();
    scheduler.fire();
    const loggedIn = await store.getState().check();
    expect(loggedIn).to.equal(false);
    expect(store.getState()).to.include({
      status: 'loggedOut',
      loggedIn: false,
      accessToken: null,
      user: null,
    });
    expect(scheduler.pending).to.have.length(0);
  });

  it('is logged out when the issuer cannot be reached', async () => {
    const store = createSessionStore(new ManualScheduler());
    expect(await store.getState().configure('http://127.0.0.1:1')).to.equal(false);
    expect(store.getState().status).to.equal('loggedOut');
  });

  it('deduplicates concurrent checks', async () => {
    const store = createSessionStore(new ManualScheduler());
    const first = store.getState().configure(location.origin);
    expect(store.getState().check()).to.equal(first);
    await first;
  });

  it('keeps a check started before configure when it is for the same issuer', async () => {
    const asked: string[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (new URL(entry.name).pathname === '/.well-known/openid-configuration') asked.push(entry.name);
      }
    });
    observer.observe({ type: 'resource' });
    try {
      const store = createSessionStore(new ManualScheduler());
      const first = store.getState().check();
      expect(store.getState().configure(location.origin)).to.equal(first);
      expect(store.getState().issuer).to.equal(location.origin);
      await first;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(asked).to.have.length(1);
    } finally {
      observer.disconnect();
    }
  });

  it('signs out: revokes the session on the server and resets', async () => {
    await signIn('ada@acme.test');
    const store = createSessionStore(new ManualScheduler());
    expect(await store.getState().configure(location.origin)).to.equal(true);
    await store.getState().signOut();
    expect(store.getState()).to.include({ status: 'loggedOut', loggedIn: false, user: null });
    expect(await checkLogin({ issuer: location.origin })).to.deep.equal({ authenticated: false });
  });

  it('ends the signed-in calls in flight or started while signing out, and not the later ones', async () => {
    await signIn('ada@acme.test');
    const store = createSessionStore(new ManualScheduler());
    expect(await store.getState().configure(location.origin)).to.equal(true);
    // A real signed-in call that is still running when the user signs out: its request goes out at once
    // (the store has a token) and nothing is awaited before the sign-out, so it cannot have been answered.
    const pending = store
      .getState()
      .authorized((ctx) => getUserInfo(ctx, store.getState().endpoints!.userinfo_endpoint))
      .then(
        () => null,
        (error: unknown) => error,
      );
    await store.getState().signOut();
    const failure = await pending;
    expect((failure as DOMException | null)?.name, 'the call was aborted, not answered 401').to.equal(
      'AbortError',
    );
    // A signed-in call started while the sign-out runs ends too, without reaching the server.
    await signIn('ada@acme.test');
    expect(await store.getState().check()).to.equal(true);
    const signingOut = store.getState().signOut();
    let during: unknown = null;
    await store
      .getState()
      .authorized((ctx) => getUserInfo(ctx, store.getState().endpoints!.userinfo_endpoint))
      .catch((error: unknown) => (during = error));
    await signingOut;
    expect((during as DOMException | null)?.name, 'a call during the sign-out').to.equal('AbortError');
    // Signed in again, the store's calls go through.
    await signIn('ada@acme.test');
    expect(await store.getState().check()).to.equal(true);
    const user = await store
      .getState()
      .authorized((ctx) => getUserInfo(ctx, store.getState().endpoints!.userinfo_endpoint));
    expect(user.email).to.equal('ada@acme.test');
  });
});

describe('state/session when the session ends elsewhere', () => {
  afterEach(serverLogout);

  it('finds the session ended at a refused change, and says so, instead of failing as if it could work', async () => {
    const publicId = await signIn('ada@acme.test');
    const store = createSessionStore(new ManualScheduler());
    expect(await store.getState().configure(location.origin)).to.equal(true);
    await endElsewhere(publicId);
    // The browser's anti-forgery token was bound to the ended session: the server refuses the change.
    const failure = await store
      .getState()
      .authorized((ctx) => saveName(ctx, 'Ada King'))
      .catch((error: unknown) => error);
    expect((failure as { status?: number }).status).to.equal(403);
    expect(store.getState(), 'checked, and signed out').to.include({ status: 'loggedOut', loggedIn: false });
    expect(store.getState().ended, 'the sign-in screens can say why').to.deep.equal({ team: 'acme' });
  });

  it('does not send a change again for someone else who signed in meanwhile', async () => {
    const publicId = await signIn('ada@acme.test');
    const store = createSessionStore(new ManualScheduler());
    expect(await store.getState().configure(location.origin)).to.equal(true);
    // Ada's session ends, and Carol signs in to this browser; the store still holds Ada's token.
    await endElsewhere(publicId);
    await signIn('carol@globex.test');
    let sent = 0;
    const failure = await store
      .getState()
      .authorized((ctx) => {
        sent++;
        return saveName(ctx, 'Ada King');
      })
      .catch((error: unknown) => error);
    expect((failure as { status?: number }).status, "Ada's call refused").to.equal(401);
    expect(sent, 'not sent again as Carol').to.equal(1);
    expect(store.getState().user?.email, 'the page now shows who is signed in').to.equal('carol@globex.test');
    expect(store.getState().user?.name).to.not.equal('Ada King');
  });
});

describe('state/session signed-in calls without a session', () => {
  it('fail with a 401 without a request the server could only refuse', async () => {
    const store = createSessionStore(new ManualScheduler());
    expect(await store.getState().configure(location.origin)).to.equal(false);
    let called = false;
    let failure: unknown = null;
    await store
      .getState()
      .authorized(async (ctx) => {
        called = true;
        return getUserInfo(ctx, store.getState().endpoints!.userinfo_endpoint);
      })
      .catch((error: unknown) => (failure = error));
    expect(called, 'no request without a token').to.equal(false);
    expect((failure as { status?: number } | null)?.status).to.equal(401);
  });
});

describe('initials (spec §3)', () => {
  it('follows the rule', () => {
    expect(initials('Ada Lovelace')).to.equal('AL');
    expect(initials('ada lovelace byron')).to.equal('AL');
    expect(initials('Plato')).to.equal('P');
    expect(initials('  ')).to.equal('-');
    expect(initials(null)).to.equal('-');
    expect(initials('Élodie Ørsted')).to.equal('ÉØ');
    expect(initials('山田 太郎')).to.equal('山太');
  });

  it('takes letters only, never punctuation or digits', () => {
    expect(initials('<img src=x')).to.equal('IS');
    expect(initials('"Ada" (Lovelace)')).to.equal('AL');
    expect(initials('— 42 Ada')).to.equal('A');
    expect(initials('<> 1234 !!')).to.equal('-');
    // A letter written with a combining accent stays whole.
    expect(initials('E\u0301lodie Zola')).to.equal('E\u0301Z');
  });
});
