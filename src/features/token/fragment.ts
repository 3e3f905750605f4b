/** The two tokens the server hands to the success page in the address fragment (design §3). */
export interface FragmentTokens {
  access: string;
  id: string;
}

let captured: FragmentTokens | null = null;

/**
 * Take `access_token` and `id_token` out of the address fragment into memory and remove the fragment at
 * once (design §3), before any session check or lazily loaded chunk can delay it: tokens left in the
 * address end up in the history, in bookmarks and in screenshots. Called synchronously when
 * `<acct-portal>` or `<acct-token>` starts, and again by the screens (it is idempotent). A fragment
 * without both tokens is left alone — it may belong to the host page.
 */
export function captureTokenFragment(): FragmentTokens | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const access = params.get('access_token');
  const id = params.get('id_token');
  if (access && id) {
    captured = { access, id };
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  }
  return captured;
}

/** The tokens taken from the fragment, if any (memory only: never stored, design §3). */
export function capturedTokens(): FragmentTokens | null {
  return captured;
}

/** Forget the captured tokens (tests, and a page that starts over). */
export function forgetCapturedTokens(): void {
  captured = null;
}
