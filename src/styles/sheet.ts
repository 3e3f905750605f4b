import baseCss from './base.css';
import { themeCss } from './theme';

let shared: CSSStyleSheet | undefined;
/** Rules that lazily loaded chunks brought (`addRules`), in the order they came. */
const added: string[] = [];

/** The full CSS text of the shadow roots: theme variables, then the base and component rules. */
export function elementCss(): string {
  return [themeCss(), baseCss, ...added].join('\n');
}

/**
 * The one constructable stylesheet adopted by every element's shadow root. Constructable sheets are not
 * `<style>` elements, so they work under a strict `style-src 'self'` CSP and are parsed once per page.
 */
export function sharedSheet(): CSSStyleSheet {
  if (!shared) {
    shared = new CSSStyleSheet();
    shared.replaceSync(elementCss());
  }
  return shared;
}

/**
 * Add rules that only lazily loaded screens use to the shared sheet, once: every shadow root that has
 * adopted it (or adopts it later) gets them, so the sign-in page never downloads or parses them.
 */
export function addRules(css: string): void {
  if (added.includes(css)) return;
  added.push(css);
  shared?.replaceSync(elementCss());
}
