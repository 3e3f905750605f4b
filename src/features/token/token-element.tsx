import { useState } from 'react';
import { useStore } from 'zustand';
import { sessionStore } from '../../state/session';
import { MemoryRouter, useRouter } from '../../ui/router';
import { SignInPrompt } from '../../ui/sign-in-prompt';
import { Snackbar } from '../../ui/snackbar';
import { ScreenLoading } from '../../ui/spinner';
import { captureTokenFragment } from './fragment';
import TokenForm from './token-form';
import TokenSuccess from './token-success';
import '../../styles/screens-sheet';

/**
 * `<acct-token>` on its own: the developer-tools form for a signed-in user — or, on a page whose address
 * carries the tokens in its fragment, the success view.
 */
export default function TokenElement() {
  const status = useStore(sessionStore, (state) => state.status);
  // Decided once: the fragment is gone from the address by the next render (it was taken into memory), and
  // the session check re-renders this — the success view must not turn into the form then.
  const [success] = useState(() => captureTokenFragment() !== null);
  if (!success && status === 'unknown') return <ScreenLoading />;
  return (
    <MemoryRouter initial={success ? '/manage/dev/success' : '/manage/dev'}>
      <div className="standalone-panel">
        <Screen />
      </div>
      <Snackbar />
    </MemoryRouter>
  );
}

/** The tokens at the success page; the form (or a sign-in prompt) there and after 'Generate new tokens'. */
function Screen() {
  const status = useStore(sessionStore, (state) => state.status);
  const { location } = useRouter();
  if (location.path === '/manage/dev/success') return <TokenSuccess />;
  if (status === 'unknown') return <ScreenLoading />;
  return status === 'loggedIn' ? <TokenForm /> : <SignInPrompt />;
}
