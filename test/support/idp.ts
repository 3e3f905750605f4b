/** What a provider sends the browser back with: a redirect, or (form_post, as Apple) a form to post. */
export interface ProviderAnswer {
  url: URL;
  /** The fields of a form_post answer; null for a redirect (the answer is in `url`). */
  form: URLSearchParams | null;
}

const unescape = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&');

/**
 * Walk a stand-in provider's sign-in the way a browser would, with plain HTTP: follow the authorization
 * URL, answer the account form, and stop at the answer back to the relying party's callback — a
 * redirect there, or the provider's auto-submitting form_post page, whose form is returned unsent.
 */
export async function providerAnswer(
  authorizeUrl: string,
  account: string,
  callbackPrefix: string,
): Promise<ProviderAnswer> {
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
    if (url.href.startsWith(callbackPrefix)) return { url, form: null };
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
    url = new URL(unescape(action), url);
    if (url.href.startsWith(callbackPrefix)) {
      const fields = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)];
      return { url, form: new URLSearchParams(fields.map((m) => [m[1]!, unescape(m[2]!)])) };
    }
    form = new URLSearchParams({ login: account });
  }
  throw new Error('too many redirects at the provider');
}

/** The provider's redirect back to the callback (providers that answer by redirect). */
export async function signInAtProvider(
  authorizeUrl: string,
  account: string,
  callbackPrefix: string,
): Promise<URL> {
  const answer = await providerAnswer(authorizeUrl, account, callbackPrefix);
  if (answer.form) throw new Error(`the provider answered by form_post to ${answer.url}`);
  return answer.url;
}
