import type { Language } from '../../../src/contract/languages';

/** The provider's plain pages load nothing: no script, no style, no image. */
export const PLAIN_PAGE_CSP = "default-src 'none'";

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain page: a title and what the body says (already escaped), nothing loaded. */
export function plainPage(language: Language, title: string, body: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
}
