/** Every screen in the schenck brand, light and dark (test/support/screens-sweep.ts). */
import { sweepScreens } from '../support/screens-sweep';

sweepScreens('schenck');
