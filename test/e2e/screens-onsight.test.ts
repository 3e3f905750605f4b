/** Every screen in the onsight brand, light and dark (test/support/screens-sweep.ts). */
import { sweepScreens } from '../support/screens-sweep';

sweepScreens('onsight');
