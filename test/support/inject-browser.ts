import type { FastifyInstance } from 'fastify';

/**
 * A browser's cookie jar over Fastify inject, for the OpenID Provider's flows: the provider's cookies
 * and the portal's session (a `Cookie` header to start with), redirects followed on the issuer.
 */
export class InjectBrowser {
  readonly jar = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly issuer: string,
    portalCookie?: string,
  ) {
    for (const part of portalCookie?.split('; ') ?? []) {
      const [name, value] = part.split('=');
      this.jar.set(name!, value!);
    }
  }
  get(url: string, headers: Record<string, string> = {}) {
    return this.send('GET', url, headers);
  }
  post(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    const payload = new URLSearchParams(form).toString();
    return this.send(
      'POST',
      url,
      { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload,
    );
  }
  private async send(method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: string) {
    const response = await this.app.inject({
      method,
      url,
      headers: {
        host: new URL(this.issuer).host,
        cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        accept: 'text/html',
        ...headers,
      },
      ...(payload === undefined ? {} : { payload }),
    });
    const setCookie = response.headers['set-cookie'];
    for (const line of [setCookie ?? []].flat()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const expired = attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a));
      if (expired) this.jar.delete(name!.trim());
      else this.jar.set(name!.trim(), value.join('='));
    }
    return response;
  }
  /**
   * Follows redirects on this server; stops at the first address elsewhere (the app's), and at the
   * portal's sign-in and consent screens.
   */
  async follow(url: string) {
    let response = await this.get(url);
    const visited = [url];
    while ([302, 303].includes(response.statusCode)) {
      const location = String(response.headers.location);
      visited.push(location);
      const next = new URL(location, this.issuer);
      if (next.origin !== this.issuer) return { response, location: next, visited };
      if (/^\/(login|consent)\//.test(next.pathname)) return { response, location: next, visited };
      response = await this.get(`${next.pathname}${next.search}`);
    }
    return { response, location: null, visited };
  }
}
