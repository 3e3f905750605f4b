import { useState } from 'react';
import { useStore } from 'zustand';
import { sessionStore } from '../../state/session';
import { useElement } from '../../ui/element-context';
import { MemoryRouter } from '../../ui/router';
import { SignInPrompt } from '../../ui/sign-in-prompt';
import { Snackbar } from '../../ui/snackbar';
import { Spinner } from '../../ui/spinner';
import { captureTokenFragment } from './fragment';
import TokenForm from './token-form';
import TokenSuccess from './token-success';

/**
 * `<acct-token>` on its own: the developer-tools form for a signed-in user — or, on a page whose address
 * carries the tokens in its fragment, the success view.
 */
export default function TokenElement() {
  const { t } = useElement();
  const status = useStore(sessionStore, (state) => state.status);
  // Decided once: the fragment is gone from the address by the next render (it was taken into memory), and
  // the session check re-renders this — the success view must not turn into the form then.
  const [success] = useState(() => captureTokenFragment() !== null);
  if (!success && status === 'unknown') {
    return (
      <div className="loading manage-waiting" role="status">
        <Spinner />
        <span>{t('common.loading')}</span>
      </div>
    );
  }
  return (
    <MemoryRouter initial={success ? '/manage/dev/success' : '/manage/dev'}>
      <div className="standalone-panel">
        {success ? <TokenSuccess /> : status === 'loggedIn' ? <TokenForm /> : <SignInPrompt />}
      </div>
      <Snackbar />
    </MemoryRouter>
  );
}
