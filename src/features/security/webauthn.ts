import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type {
  PasskeyAssertion,
  PasskeyAuthenticationOptions,
  PasskeyRegistration,
  PasskeyRegistrationOptions,
} from '../../api/passkeys';

/** The browser's prompt to make a passkey, for the server's options. */
export function createPasskey(optionsJSON: PasskeyRegistrationOptions): Promise<PasskeyRegistration> {
  return startRegistration({ optionsJSON });
}

/** The browser's prompt to use one of the user's passkeys, for the server's options. */
export function assertPasskey(optionsJSON: PasskeyAuthenticationOptions): Promise<PasskeyAssertion> {
  return startAuthentication({ optionsJSON });
}
