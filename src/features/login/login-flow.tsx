import { useRouter } from '../../ui/router';
import { ForgotScreen, InviteScreen, ResetScreen, TeamScreen } from './lazy-screens';
import { parseLoginPath } from './routes';
import { SignInScreen, type AfterSignIn } from './signin-screen';

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
  if (route.screen === 'forgotPassword') {
    // The element root's Suspense boundary covers the chunk's first load (the portal preloads it).
    return <ForgotScreen key={route.team} team={route.team} />;
  }
  if (route.screen === 'invite') {
    // As the forgot-password screen: the element root's Suspense boundary covers the chunk's first load.
    return <InviteScreen key={route.team} team={route.team} afterSignIn={afterSignIn} />;
  }
  // As the invitation screen: the element root's Suspense boundary covers its chunk's first load.
  return <ResetScreen key={route.team} team={route.team} />;
}
