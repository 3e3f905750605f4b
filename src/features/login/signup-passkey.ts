import { startRegistration } from '@simplewebauthn/browser';
import { addPasskey, getRegistrationOptions } from '../../api/passkeys';
import { sessionStore } from '../../state/session';

/**
 * The new owner's first passkey, right after the team was made and their session began: the account's
 * own passkey calls (as the manage area adds one), with the session's token. Its own chunk: loaded only
 * when the person chooses a passkey.
 */
export async function registerFirstPasskey(name: string, language: string): Promise<void> {
  const { authorized } = sessionStore.getState();
  const optionsJSON = await authorized(getRegistrationOptions, language);
  const response = await startRegistration({ optionsJSON });
  await authorized((ctx) => addPasskey(ctx, name, response), language);
}
