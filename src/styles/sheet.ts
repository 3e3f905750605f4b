import baseCss from './base.css';
import { themeCss } from './theme';

let shared: CSSStyleSheet | undefined;

/** The full CSS text of the shadow roots: theme variables, then the base and component rules. */
export function elementCss(): string {
  return `${themeCss()}\n${baseCss}`;
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
