import { useRouter } from '../../ui/router';
import { ForgotScreen } from './forgot-screen';
import { ResetScreen } from './reset-screen';
import { parseLoginPath } from './routes';
import { SignInScreen, type AfterSignIn } from './signin-screen';
import { TeamScreen } from './team-screen';

/** The /login screens for the current route (the portal's or the element's own memory router). */
export function LoginFlow({ afterSignIn }: { afterSignIn: AfterSignIn }) {
  const { location } = useRouter();
  const route = parseLoginPath(location.path);
  if (route.screen === 'team' || !route.team) return <TeamScreen />;
  if (route.screen === 'signin' || route.screen === 'error') {
    return <SignInScreen key={route.team} team={route.team} afterSignIn={afterSignIn} />;
  }
  if (route.screen === 'forgotPassword') return <ForgotScreen key={route.team} team={route.team} />;
  return <ResetScreen key={route.team} team={route.team} />;
}
