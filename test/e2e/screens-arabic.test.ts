/**
 * Every screen in Arabic, right to left, in one brand, light and dark (test/support/screens-sweep.ts):
 * screenshots to look at (test-results/screens/*-ar.png) and axe on each. The browser's language is
 * Arabic, as an Arabic-speaking visitor's is; the elements take it up and mirror.
 */
import { sweepScreens } from '../support/screens-sweep';

sweepScreens(['intoware'], { language: 'ar' });
