import { expect } from 'chai';
import { configure, waitFor, within } from '@testing-library/dom';
import { readCookie } from '../../src/api/client';
import { instanceNow } from '../../src/i18n/instance';
import { sayWith } from '../../src/i18n/said';
import { noticesStore } from '../../src/state/notices';
import { sessionStore } from '../../src/state/session';

// testing-library prints the container on a failed query, and cannot print a ShadowRoot: keep the message.
// A wait gives up after 10 s: what it waits for (a request, a password hashed) can take that long with
// both cores busy.
configure({
  getElementError: (message) => new Error(message ?? 'element not found'),
  asyncUtilTimeout: 10000,
});

/** The last notice shown, in English's words (the screens' texts, parts and all, are loaded by then). */
export function lastNotice(): string | undefined {
  const message = noticesStore.getState().queue.at(-1)?.message;
  return message && sayWith(instanceNow('en')!.getFixedT('en'), message);
}

/** Put some markup in the page; returns its first element. */
export function mount(html: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  document.body.append(holder);
  return holder.firstElementChild as HTMLElement;
}

/** The element's shadow root once it has rendered past its language loading. */
export async function rendered(element: HTMLElement): Promise<ShadowRoot> {
  const root = element.shadowRoot;
  expect(root, 'open shadow root').to.not.equal(null);
  await waitFor(() => expect(root!.querySelector('.acct-root[aria-busy="false"]')).to.not.equal(null));
  return root!;
}

/** testing-library queries inside the element's shadow root. */
export async function screenOf(element: HTMLElement) {
  return within((await rendered(element)) as unknown as HTMLElement);
}

/** Revoke the session the test made, through the real logout call, and forget it in the store. */
export async function logoutEverywhere(): Promise<void> {
  const xsrf = readCookie(document.cookie, 'XSRF-TOKEN') ?? '';
  await fetch('/account/logout', {
    method: 'POST',
    headers: { 'X-XSRF-TOKEN': xsrf, Accept: 'application/json' },
  });
  sessionStore.getState().reset();
}

/**
 * Sign a seeded user in through the harness's `/__test/session` (no password to hash), then run the
 * real login check so the session store holds the user, their token and team.
 */
export async function signInAs(email: string): Promise<void> {
  const response = await fetch(`/__test/session?email=${encodeURIComponent(email)}`);
  expect(response.ok).to.equal(true);
  sessionStore.getState().reset();
  expect(await sessionStore.getState().check()).to.equal(true);
}

/** A setup link from acme's owner to `email`, through the harness's `/__test/setup-link`: its token. */
export async function setupLinkFor(email: string): Promise<string> {
  const response = await fetch(`/__test/setup-link?email=${encodeURIComponent(email)}`);
  expect(response.ok).to.equal(true);
  return ((await response.json()) as { token: string }).token;
}

/** Publish a TXT record on the loopback DNS server that the test server's domain lookups ask. */
export async function publishTxt(name: string, value: string): Promise<void> {
  const query = new URLSearchParams({ name, value });
  expect((await fetch(`/__test/dns?${query.toString()}`)).ok).to.equal(true);
}

/** A token shaped like the server's (header.payload.signature); only the payload is read, for display. */
export function fakeJwt(payload: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'EdDSA', typ: 'at+jwt' })}.${part(payload)}.c2lnbmF0dXJl`;
}

/**
 * Watch a shadow root and remember whether `check` was ever true after a DOM change: for states that
 * last only while a request runs (a fast local server can answer before a polling assertion looks).
 */
export function watchFor(root: ShadowRoot, check: () => boolean): { seen(): boolean; stop(): void } {
  let seen = check();
  const observer = new MutationObserver(() => {
    seen ||= check();
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true });
  return { seen: () => seen, stop: () => observer.disconnect() };
}

/**
 * Wait for the identity server: the first request of a run starts it (and may build its seeded
 * database), which can take longer than one test's timeout on a busy machine. Use in a `before` hook.
 */
export async function serverReady(this: Mocha.Context): Promise<void> {
  this.timeout(60000);
  expect((await fetch('/.well-known/openid-configuration')).ok).to.equal(true);
}

/**
 * When the code under test calls a function: `install` wraps it so that each call runs `record`, and
 * returns what undoes the wrapping. `ask` starts the work; `whileAsking` lists the calls made before it
 * returned, `all` every call once its promise has settled — each `'asking'` or `'after'`.
 */
export async function callPhases<T>(
  install: (record: () => void) => () => void,
  ask: () => Promise<T>,
): Promise<{ whileAsking: string[]; all: string[]; result: T }> {
  let phase: 'asking' | 'after' = 'asking';
  const all: string[] = [];
  const undo = install(() => all.push(phase));
  try {
    const pending = ask();
    phase = 'after';
    const whileAsking = [...all];
    return { whileAsking, all, result: await pending };
  } finally {
    undo();
  }
}

/**
 * Submit a form as a person would (`requestSubmit`), let the page's own submit handlers run, then stop
 * the navigation and return the fields the browser would have posted. A listener on the form's root
 * (document or shadow root) added now runs after React's, which listens there since the root was made.
 */
export function submittedFields(form: HTMLFormElement, submitter?: HTMLElement): Record<string, string> {
  const root = form.getRootNode() as Document | ShadowRoot;
  let fields: Record<string, string> | null = null;
  const stop = (event: Event) => {
    if (event.target !== form) return;
    fields = {};
    for (const [name, value] of new FormData(form, submitter)) fields[name] = String(value);
    event.preventDefault();
  };
  root.addEventListener('submit', stop);
  try {
    form.requestSubmit(submitter ?? null);
  } finally {
    root.removeEventListener('submit', stop);
  }
  if (!fields) throw new Error('the form was not submitted');
  return fields;
}
