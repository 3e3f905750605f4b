/**
 * When a bench page is usable, as page-side conditions. Each is source text (a compiled function could
 * carry the TypeScript loader's helpers into the page) of an expression that is true once the thing a
 * person came for is on screen: it has a layout box, looking inside shadow roots.
 */
export type Usable = 'password' | 'initials' | 'portal';

const CONDITIONS: Record<Usable, string> = {
  // The sign-in form: a password field, ours (in <acct-login>'s shadow root) or a floor's (in the document
  // for the minimal floor, in the shadow root of #floor for the login floor).
  password: `(() => {
    const field =
      document.querySelector('input[type="password"]') ??
      document.querySelector('acct-login')?.shadowRoot?.querySelector('input[type="password"]') ??
      document.getElementById('floor')?.shadowRoot?.querySelector('input[type="password"]');
    return !!field && field.getClientRects().length > 0;
  })()`,
  // The header with the signed-in user's initials (Ada Lovelace → AL), ours or the floor's.
  initials: `(() => {
    const avatar =
      document.querySelector('.avatar') ??
      document.querySelector('acct-header')?.shadowRoot?.querySelector('.avatar');
    return !!avatar && avatar.textContent === 'AL' && avatar.getClientRects().length > 0;
  })()`,
  // The portal's first screen: rendered past its language loading, a heading on screen, nothing busy.
  portal: `(() => {
    const root = document.querySelector('acct-portal')?.shadowRoot;
    const heading = root?.querySelector('h1');
    return (
      !!root?.querySelector('.acct-root[aria-busy="false"]') &&
      !!heading &&
      heading.getClientRects().length > 0 &&
      !root.querySelector('[aria-busy="true"]')
    );
  })()`,
};

/**
 * An init script that records in `window.__usableAt` the `performance.now()` (milliseconds since
 * navigation start) of the first animation frame in which the page is usable.
 */
export function usableProbe(usable: Usable): string {
  return `(() => {
    const tick = () => {
      if (${CONDITIONS[usable]}) window.__usableAt = performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })();`;
}

declare global {
  interface Window {
    __usableAt?: number;
  }
}
