import { captureTokenFragment } from '../features/token/fragment';
import { lazyScreen } from '../ui/lazy-screen';
import { define, elementClass } from './define';

/**
 * Developer tools: choose policies and generate an access token and id token.
 *
 * @tag acct-token
 * @summary Access-token generation for API use.
 * @csspart card - The panel.
 * @csspart button - Buttons.
 * @csspart snackbar - A notice (token copied).
 */
export class AcctTokenElement extends elementClass(
  // A lazily loaded chunk: pages without developer tools never download it.
  lazyScreen(() => import('../features/token/token-element')),
) {
  constructor() {
    super();
    // Design §3: the tokens leave the address at once, not when the lazily loaded screen arrives.
    captureTokenFragment();
  }
}

define('acct-token', AcctTokenElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-token': AcctTokenElement;
  }
}
