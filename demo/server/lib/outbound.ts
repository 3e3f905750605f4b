import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Requests this server makes to an address an admin typed (a provider's metadata URL), with a guard
 * against reaching inside its own network (docs/decisions/saml-metadata-import.md): the host's every
 * address is checked, the connection goes to the checked one, redirects are checked again, and the
 * answer has a time and a size limit.
 */

/** Why an outbound request gave no answer to use. */
export type OutboundProblem =
  | 'invalidUrl'
  | 'insecureUrl'
  | 'forbiddenAddress'
  | 'unreachable'
  | 'badStatus'
  | 'timeout'
  | 'tooLarge'
  | 'tooManyRedirects';

export class OutboundError extends Error {
  constructor(
    readonly problem: OutboundProblem,
    message: string,
    /** The status answered (badStatus). */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** The special-use ranges (IANA's registries): loopback, private, link-local, CGNAT, multicast, … */
const SPECIAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  SPECIAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, the deprecated IPv4-compatible form
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  SPECIAL.addSubnet(network, prefix, 'ipv6');

/**
 * The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::a.b.c.d`) address,
 * which reach that IPv4 address; null for any other. The URL parser writes every spelling of an IPv6
 * address the one same way, so two patterns cover them all.
 */
function embeddedIpv4(address: string): string | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]`).hostname;
  } catch {
    return null;
  }
  const match = /^\[(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical);
  if (!match) return null;
  const [high, low] = [parseInt(match[1]!, 16), parseInt(match[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * Whether this server may connect to the address for a URL someone typed: an IPv4 or IPv6 address
 * outside every special-use range, IPv4 inside IPv6 judged as IPv4. Anything else (a name, a scoped
 * address) is not.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !SPECIAL.check(address, 'ipv4');
  if (family !== 6) return false;
  const ipv4 = embeddedIpv4(address);
  if (ipv4 !== null) return isPublicAddress(ipv4);
  return !SPECIAL.check(address, 'ipv6');
}

export interface OutboundOptions {
  /** Plain http too: only where this site itself is on http (the demo, the tests). */
  allowHttp: boolean;
  /** The guard: whether an address may be connected to ({@link isPublicAddress}, or all of them). */
  addressAllowed(address: string): boolean;
  /** The whole request, redirects included (5 s). */
  timeoutMs?: number;
  /** The most the answer's body may weigh; reading stops past it. */
  maxBytes: number;
  /** Redirects followed, each checked as the first address was (2). */
  maxRedirects?: number;
  accept?: string;
  /** Further request headers (a service's own, such as Pwned Passwords' `Add-Padding`). */
  headers?: Record<string, string>;
  /** A host name's addresses (the system resolver's, all of them). */
  lookup?(host: string): Promise<Address[]>;
  /** The certificate authorities trusted instead of the system's (the tests' own loopback receiver). */
  ca?: string;
  /**
   * A kept-alive agent of the caller's, for several requests in a row to one address (each still
   * checked; a new connection still goes to the checked address). Without it nothing is pooled.
   */
  agent?: HttpAgent;
}

export interface OutboundAnswer {
  /** Where the answer came from, after redirects. */
  url: string;
  /** The 2xx status answered. */
  status: number;
  contentType: string | null;
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const systemLookup = (host: string) => dnsLookup(host, { all: true, verbatim: true });

/** An address this server may request: http(s), no credentials in it, plain http only when allowed. */
function target(text: string, allowHttp: boolean, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new OutboundError('invalidUrl', 'not an absolute URL');
  }
  if (url.username || url.password || !url.hostname)
    throw new OutboundError('invalidUrl', 'a URL without credentials and with a host is needed');
  if (url.protocol === 'https:' || (url.protocol === 'http:' && allowHttp)) return url;
  if (url.protocol === 'http:') throw new OutboundError('insecureUrl', 'only https addresses are fetched');
  throw new OutboundError('invalidUrl', 'only http(s) addresses are fetched');
}

/** Rejects when the signal aborts (the lookup itself cannot be cancelled). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new OutboundError('timeout', 'no answer in time'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

type Address = { address: string; family: number };

/**
 * The addresses to connect to for the URL's host: every address the host has must pass the guard (a
 * connection may take any of them), or none is used.
 */
async function checkedAddresses(url: URL, options: OutboundOptions, signal: AbortSignal): Promise<Address[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Address[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await abortable((options.lookup ?? systemLookup)(host), signal);
    } catch (error) {
      if (error instanceof OutboundError) throw error;
      throw new OutboundError('unreachable', `${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new OutboundError('unreachable', `${host} has no address`);
  const refused = addresses.find(({ address }) => !options.addressAllowed(address));
  if (refused)
    throw new OutboundError('forbiddenAddress', `${host} is at an address this site does not reach`);
  return addresses;
}

/** What one request sends besides its address. */
interface Outgoing {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** One answer as read: its status, headers and body (within the size limit). */
interface Incoming {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/**
 * One request to the checked addresses: the connection's lookup answers with them, whatever the name
 * would resolve to by now, so the name cannot point elsewhere between the check and the connection (Node
 * tries them in turn when it asks for all). Any status is an answer; a redirect is not followed.
 */
function requestOnce(
  url: URL,
  pinned: Address[],
  options: OutboundOptions,
  signal: AbortSignal,
  outgoing: Outgoing,
): Promise<Incoming> {
  const lookup: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, pinned);
    else callback(null, pinned[0]!.address, pinned[0]!.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: OutboundError) => {
      if (settled) return;
      settled = true;
      request.destroy();
      reject(error);
    };
    const request = send(url, {
      method: outgoing.method,
      // No compression: the size limit is the size read.
      headers: {
        ...outgoing.headers,
        'accept-encoding': 'identity',
        ...(outgoing.body === undefined
          ? {}
          : { 'content-length': String(Buffer.byteLength(outgoing.body)) }),
      },
      lookup,
      ...(options.ca !== undefined && { ca: options.ca }),
      // A connection of its own (none pooled for another address is reused), or the caller's agent's.
      agent: options.agent ?? false,
      signal,
    });
    // Past the deadline the request ends with the signal's abort, and so does the answer's stream.
    const broken = (what: string) =>
      fail(
        signal.aborted
          ? new OutboundError('timeout', 'no answer in time')
          : new OutboundError('unreachable', what),
      );
    request.on('error', () => broken(`${url.host} did not answer`));
    request.on('response', (response: IncomingMessage) => {
      const tooLarge = () => new OutboundError('tooLarge', `the answer is over ${options.maxBytes} bytes`);
      if (Number(response.headers['content-length'] ?? 0) > options.maxBytes) return fail(tooLarge());
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) return fail(tooLarge());
        chunks.push(chunk);
      });
      response.on('error', () => broken('the answer broke off'));
      response.on('end', () => {
        if (settled) return;
        settled = true;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
      });
    });
    request.end(outgoing.body);
  });
}

/** One GET: the answer of a 2xx, where a redirect points, or the status refused. */
async function getOnce(
  url: URL,
  pinned: Address[],
  options: OutboundOptions,
  signal: AbortSignal,
): Promise<OutboundAnswer | { location: string }> {
  const answer = await requestOnce(url, pinned, options, signal, {
    method: 'GET',
    headers: { ...options.headers, accept: options.accept ?? '*/*' },
  });
  const location = answer.headers.location;
  if (REDIRECTS.has(answer.status) && location) return { location };
  if (answer.status < 200 || answer.status > 299)
    throw new OutboundError('badStatus', `answered ${answer.status}`, answer.status);
  const type = answer.headers['content-type'];
  return { url: url.href, status: answer.status, contentType: type ?? null, body: answer.body };
}

/** What a library's fetch call passes (a subset of RequestInit's: what openid-client sends). */
interface OutgoingInit {
  method?: string;
  headers?: HeadersInit;
  body?: unknown;
  signal?: AbortSignal | null;
}

/** A request body as bytes: text, a form, or bytes; nothing else is sent. */
function bodyBytes(body: unknown): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return Buffer.from(body as Uint8Array);
  throw new OutboundError('invalidUrl', 'only text and byte bodies are sent');
}

/**
 * A `fetch` for a library that calls out on an admin's word (openid-client, to a team's OpenID
 * provider and every endpoint its discovery document names): each request through the same guard —
 * the host's addresses checked and pinned, the time and size limits — and no redirect followed (the
 * library asks for none).
 */
export function guardedFetch(options: OutboundOptions) {
  return async (url: string, init: OutgoingInit = {}): Promise<Response> => {
    const deadline = AbortSignal.timeout(options.timeoutMs ?? 5_000);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const body = bodyBytes(init.body);
    const next = target(url, options.allowHttp);
    const pinned = await checkedAddresses(next, options, signal);
    const answer = await requestOnce(next, pinned, options, signal, {
      method: init.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      ...(body === undefined ? {} : { body }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
        headers.append(name, one);
    }
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers });
  };
}

/** GET `url` through the guard, following at most `maxRedirects` redirects, each checked again. */
export async function fetchGuarded(url: string, options: OutboundOptions): Promise<OutboundAnswer> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? 5_000);
  try {
    let next = target(url, options.allowHttp);
    for (let redirects = 0; ; redirects++) {
      const pinned = await checkedAddresses(next, options, deadline.signal);
      const answer = await getOnce(next, pinned, options, deadline.signal);
      if (!('location' in answer)) return answer;
      if (redirects >= (options.maxRedirects ?? 2))
        throw new OutboundError('tooManyRedirects', 'redirected too many times');
      next = target(answer.location, options.allowHttp, next);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** A POST's body and headers. */
interface Posted {
  body: string;
  headers: Record<string, string>;
}

/**
 * POST `body` to `url` through the guard: no redirect followed (a 3xx is a refusal like any answer but
 * a 2xx). The answer's body is read up to `maxBytes` (so a kept-alive connection can serve the next
 * request) and dropped.
 */
export async function postGuarded(
  url: string,
  post: Posted,
  options: OutboundOptions,
): Promise<{ status: number }> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? 5_000);
  try {
    const next = target(url, options.allowHttp);
    const pinned = await checkedAddresses(next, options, deadline.signal);
    const answer = await requestOnce(next, pinned, options, deadline.signal, {
      method: 'POST',
      headers: { accept: options.accept ?? '*/*', ...post.headers },
      body: post.body,
    });
    if (answer.status < 200 || answer.status > 299)
      throw new OutboundError('badStatus', `answered ${answer.status}`, answer.status);
    return { status: answer.status };
  } finally {
    clearTimeout(timer);
  }
}

/** Whether `url` is one this server would send to (its form; its addresses are checked when sent to). */
export function outboundUrlProblem(url: string, allowHttp: boolean): OutboundProblem | null {
  try {
    target(url, allowHttp);
    return null;
  } catch (error) {
    if (error instanceof OutboundError) return error.problem;
    throw error;
  }
}
