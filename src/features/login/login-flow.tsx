import { lazyScreen } from '../../ui/lazy-screen';
import { useRouter } from '../../ui/router';
import { ForgotScreen } from './forgot-screen';
import { parseLoginPath } from './routes';
import { SignInScreen, type AfterSignIn } from './signin-screen';
import { TeamScreen } from './team-screen';

/** The invitation screen: its own chunk, so the sign-in page's bytes do not carry it. */
export const InviteScreen = lazyScreen(() => import('./invite-screen'));
/** The reset screen too, with the new-password fields (and the strength meter's loader). */
export const ResetScreen = lazyScreen(() => import('./reset-screen'));

/** The /login screens for the current route (the portal's or the element's own memory router). */
export function LoginFlow({ afterSignIn }: { afterSignIn: AfterSignIn }) {
  const { location } = useRouter();
  const route = parseLoginPath(location.path);
  if (route.screen === 'team' || !route.team) return <TeamScreen />;
  if (route.screen === 'signin' || route.screen === 'error' || route.screen === 'emailCode') {
    return (
      <SignInScreen
        key={route.team}
        team={route.team}
        afterSignIn={afterSignIn}
        emailLink={route.screen === 'emailCode'}
      />
    );
  }
  if (route.screen === 'forgotPassword') return <ForgotScreen key={route.team} team={route.team} />;
  if (route.screen === 'invite') {
    // The element root's Suspense boundary covers the chunk's first load (the portal preloads it).
    return <InviteScreen key={route.team} team={route.team} afterSignIn={afterSignIn} />;
  }
  // As the invitation screen: the element root's Suspense boundary covers its chunk's first load.
  return <ResetScreen key={route.team} team={route.team} />;
}
