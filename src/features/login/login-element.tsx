import { MemoryRouter } from '../../ui/router';
import { LoginFlow } from './login-flow';
import { signInPath } from './routes';

export interface LoginElementProps {
  /** Start at this team's sign-in screen instead of team entry. */
  team?: string;
  /** Where to go after signing in (validated by the ReturnUrl rule). */
  returnUrl?: string;
  /** Navigate the host page after signing in (otherwise only `acct-signed-in` is dispatched). */
  redirect?: boolean;
}

/**
 * `<acct-login>` on its own: the login screens in a memory router, so the host page's URL never changes.
 */
export function LoginElement({ team, returnUrl, redirect }: LoginElementProps) {
  const start = team?.trim() ? signInPath(team.trim().toLowerCase()) : '/login/team';
  const query = returnUrl ? `?${new URLSearchParams({ ReturnUrl: returnUrl })}` : '';
  const initial = `${start}${query}`;
  return (
    <MemoryRouter key={initial} initial={initial}>
      <LoginFlow afterSignIn={redirect ? 'redirect' : 'event'} />
    </MemoryRouter>
  );
}
