import { ElementFrame } from '../ui/element-frame';
import { define, elementClass } from './define';

/**
 * The hosted portal: header, the routed screen and footer, following the route table of the
 * specification, mounted under `base-path`.
 *
 * @tag acct-portal
 * @summary The full sign-in and account portal (router element).
 */
export class AcctPortalElement extends elementClass(ElementFrame) {}

define('acct-portal', AcctPortalElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-portal': AcctPortalElement;
  }
}
