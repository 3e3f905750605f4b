import { lazyScreen } from '../../ui/lazy-screen';

/** The invitation screen: its own chunk, so the sign-in page's bytes do not carry it. */
export const InviteScreen = lazyScreen(() => import('./invite-screen'));
/** The reset screen too, with the new-password fields (and the strength meter's loader). */
export const ResetScreen = lazyScreen(() => import('./reset-screen'));
/**
 * And the forgot-password screen: the sign-in form's link asks for it when it is pointed at or
 * focused, so that it is usually in before the click.
 */
export const ForgotScreen = lazyScreen(() => import('./forgot-screen'));
/**
 * And the team screen, which a sign-in page for a named team does not show: an element or a portal
 * route that starts there waits for it as for its first data, and the sign-in form's links to it ask for
 * it on the way to the click.
 */
export const TeamScreen = lazyScreen(() => import('./team-screen'));
