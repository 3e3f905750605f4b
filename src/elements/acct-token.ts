import { ElementFrame } from '../ui/element-frame';
import { define, elementClass } from './define';

/**
 * Developer tools: choose policies and generate an access token and id token.
 *
 * @tag acct-token
 * @summary Access-token generation for API use.
 */
export class AcctTokenElement extends elementClass(ElementFrame) {}

define('acct-token', AcctTokenElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-token': AcctTokenElement;
  }
}
