/**
 * The manage, administration, consent, search and developer screens' rules (screens.css), added to the
 * shared sheet when a chunk that shows one of them is evaluated. Those chunks import this module for its
 * effect; the sign-in page's stylesheet stays without them (design §5's budget for that page).
 */
import screensCss from './screens.css';
import { addRules } from './sheet';

addRules(screensCss);
