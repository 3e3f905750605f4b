import { directionOf, type Language } from '../../../src/contract/languages';
import type { BrandId } from '../../../src/contract/brand-names';
import { PALETTES, type Palette } from '../../../src/contract/tokens';

/** Where the plain pages' stylesheet is served (routes/oidc.ts). */
export const PLAIN_PAGE_STYLESHEET = '/provider-pages.css';

/** The provider's plain pages load nothing but their stylesheet: no script, no image. */
export const PLAIN_PAGE_CSP = "default-src 'none'; style-src 'self'";

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain page: a title and what the body says (already escaped), in the brand's colours. */
export function plainPage(language: Language, title: string, body: string): string {
  return `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><link rel="stylesheet" href="${PLAIN_PAGE_STYLESHEET}"></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
}

const variables = (palette: Palette) =>
  `--bg:${palette.bg};--surface:${palette.surface};--text:${palette.text};--muted:${palette.muted};--primary:${palette.primary};--on-primary:${palette.onPrimary};--border:${palette.border};--danger:${palette.danger};--focus:${palette.focus};--bar:${palette.headerBg}`;

/**
 * The plain pages' stylesheet in the deployment's brand: its light palette, and its dark one when the
 * browser prefers dark (the pages have no script to read the portal's own theme choice). The same
 * palettes as the elements (src/contract/tokens.ts), so their contrast pairs hold here too.
 */
export function plainPageCss(brand: BrandId): string {
  const { light, dark } = PALETTES[brand] as { light: Palette; dark?: Palette };
  return [
    `:root{color-scheme:light;${variables(light)}}`,
    dark ? `@media (prefers-color-scheme:dark){:root{color-scheme:dark;${variables(dark)}}}` : '',
    'body{margin:0;background:var(--bg);color:var(--text);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}',
    'body::before{content:"";display:block;height:.5rem;background:var(--bar)}',
    'main{box-sizing:border-box;max-width:30rem;margin:2rem auto;padding:1.5rem;background:var(--surface);border:1px solid var(--border);border-radius:.5rem;overflow-wrap:anywhere}',
    'h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}',
    'p{margin:0 0 1rem}',
    'label{display:block;font-weight:600;margin-bottom:.25rem}',
    'input{box-sizing:border-box;width:100%;font:inherit;font-size:1.25rem;letter-spacing:.1em;padding:.5rem .75rem;border:1px solid var(--border);border-radius:.25rem;background:var(--surface);color:var(--text)}',
    'input[aria-invalid=true]{border-color:var(--danger)}',
    '[role=alert]{color:var(--danger)}',
    'strong{font-size:1.5rem;letter-spacing:.1em}',
    'button{font:inherit;min-height:2.75rem;padding:.5rem 1rem;margin:0 0 .5rem;margin-inline-end:.5rem;border:1px solid var(--primary);border-radius:.25rem;background:var(--primary);color:var(--on-primary);cursor:pointer}',
    'button.secondary{background:var(--surface);color:var(--primary)}',
    // Primary on surface: the secondary button's pair, so its contrast holds for links too.
    'a{color:var(--primary)}',
    ':focus-visible{outline:3px solid var(--focus);outline-offset:2px}',
    '@media (max-width:32rem){main{margin:0;border-width:0 0 1px;border-radius:0}}',
  ].join('\n');
}
