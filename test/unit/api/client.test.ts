import { expect } from 'chai';
import { ANSWER_WITHIN_MS, ApiError, authHeaders, readCookie, request } from '../../../src/api/client';
import { issuerUrl, isRelativeUrl, normalizeIssuer } from '../../../src/api/url';
import { getTeamPublic } from '../../../src/api/endpoints';
import { callPhases, serverReady } from '../support';

// The first request of a run starts the identity server.
before(serverReady);

const page = { href: 'https://portal.example.test/login/acme', origin: 'https://portal.example.test' };
const sameOrigin = { issuer: 'https://portal.example.test', accessToken: 'tok' };
const crossOrigin = { issuer: 'https://id.example.test', accessToken: 'tok' };
const cookies = 'a=1; XSRF-TOKEN=xsrf%2Bvalue; b=2';

describe('api/url', () => {
  it('treats only page-resolved URLs as relative', () => {
    for (const url of ['/account/check', 'api/x', '/a//b', '?q=1', '#frag'])
      expect(isRelativeUrl(url), url).to.equal(true);
    for (const url of [
      '//evil.test/x',
      '/\\evil.test/x',
      '\\\\evil.test',
      '\\/evil.test',
      '/\t/evil.test',
      ' //evil.test',
      '\n//evil.test',
      'https://evil.test/x',
      'HTTP://evil.test',
      'javascript:alert(1)',
      'data:text/html,x',
    ]) {
      expect(isRelativeUrl(url), JSON.stringify(url)).to.equal(false);
    }
  });

  it('calls the issuer by path on its own origin and by absolute URL elsewhere', () => {
    expect(issuerUrl('https://portal.example.test', '/account/check', page.origin)).to.equal(
      '/account/check',
    );
    expect(issuerUrl('https://id.example.test', '/account/check', page.origin)).to.equal(
      'https://id.example.test/account/check',
    );
    expect(issuerUrl('https://id.example.test/auth', 'x', page.origin)).to.equal(
      'https://id.example.test/auth/x',
    );
  });

  it('normalises the issuer attribute', () => {
    expect(normalizeIssuer(undefined, page.origin)).to.equal(page.origin);
    expect(normalizeIssuer('  ', page.origin)).to.equal(page.origin);
    expect(normalizeIssuer('https://id.example.test/', page.origin)).to.equal('https://id.example.test');
    expect(normalizeIssuer('javascript:alert(1)', page.origin)).to.equal(page.origin);
  });
});

describe('api/client headers (spec §7, design §3)', () => {
  it('sends the bearer and XSRF headers on a non-GET relative call to the issuer', () => {
    expect(authHeaders('/account/check', 'POST', sameOrigin, page, () => cookies)).to.deep.equal({
      Authorization: 'Bearer tok',
      'X-XSRF-TOKEN': 'xsrf+value',
    });
  });

  it('sends no XSRF header on GET, and does not read the cookies for it', () => {
    let reads = 0;
    const counted = () => {
      reads += 1;
      return cookies;
    };
    expect(authHeaders('/api/user', 'GET', sameOrigin, page, counted)).to.deep.equal({
      Authorization: 'Bearer tok',
    });
    expect(reads, 'document.cookie reads for a GET').to.equal(0);
    authHeaders('/account/check', 'POST', sameOrigin, page, counted);
    expect(reads, 'document.cookie reads for a POST').to.equal(1);
  });

  it('sends neither header to another origin, including //evil.test and its disguises', () => {
    for (const url of ['//evil.test/x', '/\\evil.test/x', '/\t/evil.test/x', 'https://evil.test/x']) {
      expect(
        authHeaders(url, 'POST', sameOrigin, page, () => cookies),
        url,
      ).to.deep.equal({});
    }
  });

  it('sends the bearer (not the XSRF header) to an issuer on another origin', () => {
    expect(
      authHeaders('https://id.example.test/api/user', 'POST', crossOrigin, page, () => cookies),
    ).to.deep.equal({
      Authorization: 'Bearer tok',
    });
    expect(
      authHeaders('https://id.example.test.evil.test/api', 'POST', crossOrigin, page, () => cookies),
    ).to.deep.equal({});
  });

  it('sends no bearer without a token', () => {
    expect(authHeaders('/x', 'POST', { issuer: page.origin }, page, () => '')).to.deep.equal({});
  });

  it('reads cookies by exact name', () => {
    expect(readCookie(cookies, 'XSRF-TOKEN')).to.equal('xsrf+value');
    expect(readCookie('MY-XSRF-TOKEN=no', 'XSRF-TOKEN')).to.equal(null);
    expect(readCookie('', 'XSRF-TOKEN')).to.equal(null);
  });
});

describe('api/client against the reference server', () => {
  const ctx = { issuer: location.origin };

  it('returns the parsed JSON of a success', async () => {
    const team = await getTeamPublic(ctx, 'acme');
    expect(team.teamDisabled).to.equal(false);
    expect(team.auth0Options).to.deep.equal({ displayName: 'Acme SSO' });
    expect(team.localOptions).to.deep.equal({});
  });

  it('raises an ApiError with the status and the server message', async () => {
    const error = await getTeamPublic(ctx, 'no-such-team').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(404);
    expect((error as ApiError).message).to.equal('team not found');
  });

  it('sends its request only once the code that asked for it has run: never during the bundle evaluation', async () => {
    // src/after-evaluation.ts: a request made while the bundle evaluates costs a re-parse of all of it.
    const { whileAsking, all, result } = await callPhases(
      (record) => {
        const realFetch = globalThis.fetch;
        globalThis.fetch = (...args: Parameters<typeof fetch>) => (record(), realFetch(...args));
        return () => (globalThis.fetch = realFetch);
      },
      () => getTeamPublic(ctx, 'acme'),
    );
    expect(whileAsking, 'fetch called by the code that asked').to.deep.equal([]);
    expect(result.teamDisabled).to.equal(false);
    expect(all).to.deep.equal(['after']);
  });

  it('rejects as aborted, never with an empty answer, when aborted while the body arrives', async () => {
    const stop = new AbortController();
    const realFetch = globalThis.fetch;
    // Abort once the answer's headers are in and its body is still to be read.
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      const response = await realFetch(...args);
      stop.abort();
      return response;
    };
    try {
      const error = await request(ctx, '/api/team/public/acme', { signal: stop.signal }).then(
        (answer) => answer,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(DOMException);
      expect((error as DOMException).name).to.equal('AbortError');
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('gives up with status 0 when the answer does not begin in time, and not before', async () => {
    // A server that takes the request and never answers: the fetch ends only when its signal does.
    const realFetch = globalThis.fetch;
    const held: AbortSignal[] = [];
    globalThis.fetch = (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        const signal = init?.signal;
        if (!signal) return;
        held.push(signal);
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    try {
      const started = performance.now();
      const error = await request(ctx, '/api/team/public/acme', { answerWithin: 300 }).catch(
        (e: unknown) => e,
      );
      expect(performance.now() - started).to.be.within(290, 5000);
      expect(error).to.be.instanceOf(ApiError);
      expect((error as ApiError).status).to.equal(0);
      expect(held[0]?.aborted, 'the request itself is ended').to.equal(true);
    } finally {
      globalThis.fetch = realFetch;
    }
    // A real answer within the time, with the caller's own signal beside the timer.
    const team = await request<{ teamDisabled: boolean }>(ctx, '/api/team/public/acme', {
      signal: new AbortController().signal,
      answerWithin: 10_000,
    });
    expect(team.teamDisabled).to.equal(false);
    expect(ANSWER_WITHIN_MS, 'the default').to.equal(30_000);
  });

  it("ends the call at once on the caller's abort, as an abort", async () => {
    const stop = new AbortController();
    const realFetch = globalThis.fetch;
    globalThis.fetch = (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        setTimeout(() => stop.abort(), 10);
      });
    try {
      const error = await request(ctx, '/api/team/public/acme', { signal: stop.signal }).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(DOMException);
      expect((error as DOMException).name).to.equal('AbortError');
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('raises status 0 when the network fails', async () => {
    const error = await request(ctx, 'http://127.0.0.1:1/nothing').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(0);
  });
});
