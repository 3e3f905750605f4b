/** Where a page is: `location`, or the parts of it the sign-in link needs. */
export type PageAddress = Pick<Location, 'origin' | 'pathname' | 'search'>;

/**
 * The header's Sign in link: the issuer's team screen. On the issuer's own origin it carries
 * `?ReturnUrl=` back to this page (path and query), since the sign-in screen only accepts same-origin
 * paths; from another origin there is no way back to give, so it has none.
 */
export function signInHref(issuer: string, page: PageAddress): string {
  const teamScreen = `${issuer}/login/team`;
  const back = `${page.pathname}${page.search}`;
  if (new URL(issuer).origin !== page.origin || back === '/') return teamScreen;
  return `${teamScreen}?${new URLSearchParams({ ReturnUrl: back })}`;
}
