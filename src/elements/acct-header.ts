import { ElementFrame } from '../ui/element-frame';
import { define, elementClass } from './define';

/**
 * The shared suite header: logo, go-to-dashboard, user menu, app switcher, theme switch and privacy link.
 *
 * @tag acct-header
 * @summary The suite header for any app page.
 */
export class AcctHeaderElement extends elementClass(ElementFrame) {}

define('acct-header', AcctHeaderElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-header': AcctHeaderElement;
  }
}
