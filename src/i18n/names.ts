/** A team's sign-in methods: the password, passkeys and each provider. */
export type SignInMethodKey = 'local' | 'passkeys' | 'google' | 'azure' | 'auth0' | 'apple';

/** The providers' own names, as they brand their sign-in (never translated). */
export const PROVIDER_NAMES = { google: 'Google', azure: 'Microsoft', apple: 'Apple' } as const;

/**
 * The one name of each sign-in method, which the sign-in page's buttons and the team screen's settings
 * both show: the provider's brand, the team's own name for its Auth0 connection, and the translated
 * names of the password and passkeys.
 */
export function signInMethodName(
  t: (key: 'common.methods.password' | 'common.methods.passkeys') => string,
  method: SignInMethodKey,
  auth0DisplayName: string,
): string {
  if (method === 'local') return t('common.methods.password');
  if (method === 'passkeys') return t('common.methods.passkeys');
  if (method === 'auth0') return auth0DisplayName;
  return PROVIDER_NAMES[method];
}
