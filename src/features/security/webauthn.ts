import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type {
  PasskeyAssertion,
  PasskeyAuthenticationOptions,
  PasskeyRegistration,
  PasskeyRegistrationOptions,
} from '../../api/passkeys';

// The server's schemas type WebAuthn's enumerations as plain strings and the extension results as a
// record, where the library has the DOM's unions and interface: the same JSON, so the casts only
// bridge the two spellings of its type.

/** The browser's prompt to make a passkey, for the server's options. */
export async function createPasskey(options: PasskeyRegistrationOptions): Promise<PasskeyRegistration> {
  const optionsJSON = options as PublicKeyCredentialCreationOptionsJSON;
  return (await startRegistration({ optionsJSON })) as PasskeyRegistration;
}

/** The browser's prompt to use one of the user's passkeys, for the server's options. */
export async function assertPasskey(options: PasskeyAuthenticationOptions): Promise<PasskeyAssertion> {
  const optionsJSON = options as PublicKeyCredentialRequestOptionsJSON;
  return (await startAuthentication({ optionsJSON })) as PasskeyAssertion;
}
