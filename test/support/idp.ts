/**
 * Walk a stand-in provider's sign-in the way a browser would, with plain HTTP: follow the authorization
 * URL, answer the account form, and stop at the redirect back to the relying party's callback.
 */
export async function signInAtProvider(
  authorizeUrl: string,
  account: string,
  callbackPrefix: string,
): Promise<URL> {
  const jar = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  let url = new URL(authorizeUrl);
  let form: URLSearchParams | null = null;
  for (let hop = 0; hop < 20; hop++) {
    if (url.href.startsWith(callbackPrefix)) return url;
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers: { cookie: cookie(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ?? undefined,
      redirect: 'manual',
    });
    remember(response);
    form = null;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const html = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action)
      throw new Error(`provider page ${url} answered ${response.status}: ${html.slice(0, 200)}`);
    url = new URL(
      action.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))),
      url,
    );
    form = new URLSearchParams({ login: account });
  }
  throw new Error('too many redirects at the provider');
}
