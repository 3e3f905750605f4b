import { createStore, type StoreApi } from 'zustand/vanilla';
import { ApiError, type ApiContext } from '../api/client';
import {
  checkLogin,
  exchangeSession,
  getDiscovery,
  getTeamPublic,
  getUserInfo,
  logout,
  type Discovery,
  type TeamPublic,
  type UserInfo,
} from '../api/endpoints';

/** Spec §9: while logged in, the login check repeats every hour. */
export const LOGIN_RECHECK_MS = 3_600_000;

export type LoginStatus = 'unknown' | 'loggedIn' | 'loggedOut';

export interface SessionState {
  /** unknown (initial) → loggedIn / loggedOut (spec §4). */
  status: LoginStatus;
  /** The logged-in flag: false until a check succeeds. */
  loggedIn: boolean;
  issuer: string | null;
  /** Identity-provider addresses from discovery (issuer, userinfo_endpoint, …). */
  endpoints: Discovery | null;
  /** Held in memory only; never written to storage. */
  accessToken: string | null;
  /** The public handle of the session the token came from. */
  sessionId: string | null;
  user: UserInfo | null;
  team: TeamPublic | null;
  /**
   * The session ended without a sign-out here (ended from another device, the account removed): the
   * team it was in, so the sign-in screens can say so and keep the team. Cleared by any sign-in or
   * sign-out.
   */
  ended: { team: string } | null;
  /** Point the store at an issuer; a different issuer resets the state. Returns the running check. */
  configure(issuer: string): Promise<boolean>;
  /** Run the login check now (deduplicated while one is running). Resolves to the logged-in flag. */
  check(): Promise<boolean>;
  /** Resolves once no check is running (at once when none is). */
  settled(): Promise<unknown>;
  /** End the signed-in calls in flight, revoke the session on the server, then reset to logged out. */
  signOut(): Promise<void>;
  /** Back to logged out, forgetting the token, the user and the timer. */
  reset(): void;
  /**
   * Make a bearer call with the current token; if the server says the session may be gone (401, or the
   * anti-forgery refusal of a session ended elsewhere), check the session once — which fetches a fresh
   * token, or finds it ended — and retry for the same person. Without a token it checks first, and fails
   * with a 401 without a request when not signed in.
   */
  authorized<T>(call: (ctx: ApiContext) => Promise<T>, language?: string): Promise<T>;
  /** The user renamed themselves: every element showing the name updates. */
  renamed(name: string): void;
}

/** Timer functions; injectable so the hourly re-check can be tested without waiting an hour. */
export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as number),
};

const loggedOut = {
  status: 'loggedOut',
  loggedIn: false,
  accessToken: null,
  sessionId: null,
  user: null,
  team: null,
  ended: null,
} as const satisfies Partial<SessionState>;

/** Whether a JWT's `exp` is more than a minute away (the payload is only read, never trusted). */
function tokenFresh(token: string | null): boolean {
  const part = token?.split('.')[1];
  if (!part) return false;
  try {
    const payload = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof payload.exp === 'number' && payload.exp * 1000 - Date.now() > 60_000;
  } catch {
    return false;
  }
}

/**
 * A refusal that may mean the session is gone: the token expired or was revoked (401), or the session
 * ended elsewhere, so this browser's anti-forgery token no longer matches (403 `antiForgery`).
 */
function sessionInDoubt(error: unknown): error is ApiError {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 401) return true;
  const body = error.body as { code?: unknown } | null;
  return error.status === 403 && body?.code === 'antiForgery';
}

export function createSessionStore(scheduler: Scheduler = realScheduler): StoreApi<SessionState> {
  let inFlight: Promise<boolean> | null = null;
  // The signed-in calls (`authorized`, and the check's own) in flight: signing out ends them, and any
  // started while it runs, so none of them is answered 401 by a session that no longer exists (the
  // browser would log each one as an error).
  let calls = new AbortController();
  let timer: unknown = null;
  // Bumped on every reset/configure so the answer of a superseded check is dropped.
  let generation = 0;

  const stopTimer = () => {
    if (timer !== null) scheduler.clearTimeout(timer);
    timer = null;
  };

  return createStore<SessionState>()((set, get) => {
    const context = (): ApiContext => ({
      issuer: get().issuer ?? location.origin,
      accessToken: get().accessToken,
    });
    /** The context of a call that signing out ends. */
    const signedInContext = (): ApiContext => ({ ...context(), signal: calls.signal });

    /** The `ended` a check that found no session leaves: the team of the session it had, if any. */
    function endedNow(): SessionState['ended'] {
      const was = get();
      const team = was.loggedIn ? (was.team?.name ?? was.user?.team) : undefined;
      return team ? { team } : was.ended;
    }

    async function runCheck(gen: number): Promise<boolean> {
      const stale = () => gen !== generation;
      try {
        let endpoints = get().endpoints;
        if (!endpoints) {
          endpoints = await getDiscovery({ issuer: context().issuer });
          if (stale()) return get().loggedIn;
          set({ endpoints });
        }
        const checked = await checkLogin(signedInContext());
        if (stale()) return get().loggedIn;
        if (!checked.authenticated || !checked.session) {
          stopTimer();
          set({ ...loggedOut, ended: endedNow() });
          return false;
        }
        // The same session as before, with a token that is still good: one request is enough (the
        // portal checks after every navigation, spec §2).
        const current = get();
        if (
          current.loggedIn &&
          current.sessionId === checked.session &&
          current.user &&
          tokenFresh(current.accessToken)
        ) {
          return true;
        }
        const token = await exchangeSession(signedInContext(), endpoints.token_endpoint, checked.session);
        if (stale()) return get().loggedIn;
        set({
          status: 'loggedIn',
          loggedIn: true,
          accessToken: token.access_token,
          sessionId: checked.session,
        });
        const user = await getUserInfo(signedInContext(), endpoints.userinfo_endpoint);
        if (stale()) return get().loggedIn;
        set({ user });
        const team = await getTeamPublic(signedInContext(), user.team_id);
        if (stale()) return get().loggedIn;
        set({ team });
        stopTimer();
        timer = scheduler.setTimeout(() => void get().check(), LOGIN_RECHECK_MS);
        return true;
      } catch (error) {
        if (stale()) return get().loggedIn;
        stopTimer();
        // A refusal (the revoked session's anti-forgery token no longer matches) ends it too; a network
        // failure says nothing about it.
        const refused = error instanceof ApiError && error.status < 500;
        set({ ...loggedOut, ended: refused ? endedNow() : get().ended });
        return false;
      }
    }

    return {
      status: 'unknown',
      loggedIn: false,
      issuer: null,
      endpoints: null,
      accessToken: null,
      sessionId: null,
      user: null,
      team: null,
      ended: null,

      configure(issuer) {
        // A check that ran before any configure (the portal's router checks in a layout effect, before
        // the element root's effect configures) used this page's origin: the same issuer needs no second
        // discovery and check.
        const was = get().issuer;
        if ((was ?? location.origin) === issuer && (inFlight || get().status !== 'unknown')) {
          if (was === null) set({ issuer });
          return inFlight ?? Promise.resolve(get().loggedIn);
        }
        generation++;
        stopTimer();
        inFlight = null;
        set({
          issuer,
          endpoints: null,
          status: 'unknown',
          loggedIn: false,
          accessToken: null,
          user: null,
          team: null,
          ended: null,
        });
        return get().check();
      },

      check() {
        if (inFlight) return inFlight;
        const gen = generation;
        const running = runCheck(gen).finally(() => {
          if (inFlight === running) inFlight = null;
        });
        inFlight = running;
        return running;
      },

      settled() {
        return inFlight?.catch(() => undefined) ?? Promise.resolve();
      },

      async signOut() {
        // The check in flight is superseded, and every signed-in call ends, until the reset: one started
        // meanwhile would reach the server after the session is gone.
        generation++;
        calls.abort();
        try {
          await logout(context());
        } finally {
          get().reset();
          calls = new AbortController();
        }
      },

      reset() {
        generation++;
        inFlight = null;
        stopTimer();
        set({ ...loggedOut });
      },

      async authorized(call, language) {
        const attempt = () => call({ ...signedInContext(), language });
        // Without a token the server can only refuse (and the browser logs each refusal as an error):
        // check the session first, which fetches a token if there is one, and fail as the server would.
        if (!get().accessToken && !(await get().check())) {
          throw new ApiError(401, 'a valid access token is required');
        }
        try {
          return await attempt();
        } catch (error) {
          if (!sessionInDoubt(error)) throw error;
          const asker = get().user?.sub;
          if (!(await get().check())) throw error;
          // Sent again only for the person who asked: someone who signed in to this browser meanwhile
          // must not make their change.
          if (asker !== undefined && get().user?.sub !== asker) throw error;
          return attempt();
        }
      },

      renamed(name) {
        const user = get().user;
        if (user) set({ user: { ...user, name } });
      },
    };
  });
}

/** The page's one session store, shared by every element. */
export const sessionStore = createSessionStore();

/**
 * Initials (spec §3): first letter of the first word plus first letter of the second word; one letter
 * for a single word; a dash when there is no name. At most two letters, upper-cased. Only letters
 * count (with their combining marks): a word's punctuation or digits are passed over, and a "word"
 * without a letter is no word, so a name such as `<img src=x` gives "IS", never markup-like text.
 */
export function initials(name: string | null | undefined): string {
  const letters = (name ?? '')
    .split(/\s+/u)
    .map((word) => /\p{L}\p{M}*/u.exec(word)?.[0])
    .filter((letter): letter is string => !!letter);
  if (letters.length === 0) return '-';
  return letters.slice(0, 2).join('').toLocaleUpperCase();
}
