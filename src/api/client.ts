import { afterEvaluation } from '../after-evaluation';
import { isRelativeUrl, originOf } from './url';

/** Who the client talks to: the issuer's base URL and the access token held in memory, if any. */
export interface ApiContext {
  issuer: string;
  accessToken?: string | null;
  /** The element's language, sent as Accept-Language so server messages and mail come in it. */
  language?: string;
  /** Ends the call early (a request's own `signal` wins): signing out ends the signed-in calls. */
  signal?: AbortSignal;
}

/** A failed call: the HTTP status (0 when the network failed) and the server's message when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, message: string, body: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export type FormFields = Record<string, string | readonly string[] | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A JSON body. */
  json?: unknown;
  /** An `application/x-www-form-urlencoded` body; array values repeat the field. */
  form?: FormFields;
  signal?: AbortSignal;
  /** How long to wait for the answer to begin (ms; `ANSWER_WITHIN_MS` unless given). */
  answerWithin?: number;
}

/**
 * A server that takes a request and never answers would otherwise leave a screen busy for good: after
 * this long without the answer's headers the call fails as a network failure does (status 0), and the
 * screen says so. Only the start of the answer is timed, so a long export still arrives.
 */
export const ANSWER_WITHIN_MS = 30_000;

/** Where the page is; injectable so the header rules can be tested for any origin. */
export interface PageLocation {
  href: string;
  origin: string;
}

/** The cookie the server keeps the anti-forgery token in (spec §7). */
export const XSRF_COOKIE = 'XSRF-TOKEN';

/** The value of a cookie from a `document.cookie` string. */
export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * The headers a request gets (spec §7 and design §3):
 * - `Authorization: Bearer …` only when a token is held and the URL resolves to the issuer's origin;
 * - `X-XSRF-TOKEN` from the `XSRF-TOKEN` cookie only on non-GET requests to relative URLs;
 * - neither to any other origin (`//evil.test/x` is not relative).
 *
 * `cookies` is asked only for a request that needs the XSRF cookie: a GET needs none of it, and a
 * `document.cookie` read is a call into the browser that nothing else here needs.
 */
export function authHeaders(
  url: string,
  method: string,
  ctx: ApiContext,
  page: PageLocation,
  cookies: () => string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const target = originOf(url, page.href);
  if (target === null) return headers;
  const relative = isRelativeUrl(url) && target === page.origin;
  if (ctx.accessToken && target === originOf(ctx.issuer, page.href)) {
    headers.Authorization = `Bearer ${ctx.accessToken}`;
  }
  if (method !== 'GET' && method !== 'HEAD' && relative) {
    const xsrf = readCookie(cookies(), XSRF_COOKIE);
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  }
  return headers;
}

function formBody(fields: FormFields): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const item of typeof value === 'string' ? [value] : value) body.append(name, item);
  }
  return body;
}

function messageOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['message', 'error_description', 'error']) {
      const value = record[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  return fallback;
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return await response.json();
    } catch (error) {
      // A call aborted while its body was still arriving is aborted, not an empty answer.
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      return null;
    }
  }
  const text = await response.text();
  return text || null;
}

/** Send a call the one way every call goes (headers, credentials, abort); the raw answer. */
async function send(
  ctx: ApiContext,
  url: string,
  options: RequestOptions,
  accept: string,
): Promise<Response> {
  // Nothing here runs during the bundle's evaluation: not the request, not the XSRF cookie's read (see
  // after-evaluation.ts).
  await afterEvaluation;
  const method = options.method ?? 'GET';
  const page: PageLocation = { href: location.href, origin: location.origin };
  const headers: Record<string, string> = {
    Accept: accept,
    ...(ctx.language ? { 'Accept-Language': ctx.language } : {}),
    ...authHeaders(url, method, ctx, page, () => document.cookie),
  };
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = formBody(options.form);
  }
  const toIssuer = originOf(url, page.href) === originOf(ctx.issuer, page.href);
  // The caller's signal ends the call as before, also while the body is read; a second one ends it
  // when no answer came. (Without AbortSignal.any, an old browser waits as long as the server takes.)
  const caller = options.signal ?? ctx.signal;
  const noAnswer = new AbortController();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    noAnswer.abort();
  }, options.answerWithin ?? ANSWER_WITHIN_MS);
  const signal = !caller
    ? noAnswer.signal
    : 'any' in AbortSignal
      ? AbortSignal.any([caller, noAnswer.signal])
      : caller;
  try {
    return await fetch(url, {
      method,
      headers,
      body,
      credentials: toIssuer ? 'include' : 'same-origin',
      signal,
    });
  } catch (error) {
    if (!late && error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, late ? 'timeout' : 'network');
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The one HTTP client: every call of the elements goes through here. Requests to the issuer carry
 * cookies (`credentials: 'include'`); anything else gets only same-origin credentials.
 */
export async function request<T>(ctx: ApiContext, url: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(ctx, url, options, 'application/json');
  const parsed = await parseBody(response);
  if (!response.ok) throw new ApiError(response.status, messageOf(parsed, response.statusText), parsed);
  return parsed as T;
}

/** A file to save (an export): the answer's body as it came, or the error as `request` throws it. */
export async function requestFile(ctx: ApiContext, url: string, accept: string): Promise<Blob> {
  const response = await send(ctx, url, {}, `${accept}, application/json;q=0.5`);
  if (!response.ok) {
    const parsed = await parseBody(response);
    throw new ApiError(response.status, messageOf(parsed, response.statusText), parsed);
  }
  return response.blob();
}
