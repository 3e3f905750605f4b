// oidc-provider's RP-initiated logout steps (no public export): the server reuses the confirmation's
// last step so that a sign-out confirmed without its page does exactly what the page's does.
declare module 'oidc-provider/lib/actions/end_session.js' {
  import type { KoaContextWithOIDC } from 'oidc-provider';
  export const confirm: ReadonlyArray<(ctx: KoaContextWithOIDC) => Promise<void>>;
}
