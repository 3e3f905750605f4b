import { useStore } from 'zustand';
import { sessionStore } from '../../state/session';
import { useElement } from '../../ui/element-context';
import { MemoryRouter } from '../../ui/router';
import { SignInPrompt } from '../../ui/sign-in-prompt';
import { Snackbar } from '../../ui/snackbar';
import { Spinner } from '../../ui/spinner';
import TokenForm from './token-form';
import TokenSuccess from './token-success';

/**
 * `<acct-token>` on its own: the developer-tools form for a signed-in user — or, on a page whose address
 * carries the tokens in its fragment, the success view.
 */
export default function TokenElement() {
  const { t } = useElement();
  const status = useStore(sessionStore, (state) => state.status);
  const success = /(?:^#|&)access_token=/.test(location.hash);
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
