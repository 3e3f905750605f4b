import {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  WebAuthnAbortService,
} from '@simplewebauthn/browser';
import type { i18n as I18n } from 'i18next';
import { ApiError, type ApiContext } from '../../api/client';
import { getSignInOptions, signInWithPasskey } from '../../api/passkeys';
import { refusalOf } from '../../api/refusal';
import { addTextPart } from '../../i18n/parts';

/**
 * How a passkey sign-in ended. `cancelled`: the user closed the browser's prompt (or a newer ceremony
 * replaced this one); `unavailable`: the browser will not use this site's passkeys on this page (an
 * embedding origin the issuer does not list, a browser without Related Origin Requests); `removed`: no
 * account has the passkey (removed from its account); `refused`: any other refusal (another team's).
 */
export type PasskeyOutcome =
  | 'signedIn'
  | 'cancelled'
  | 'unavailable'
  | 'refused'
  | 'removed'
  | 'turnedOff'
  | 'locked'
  | 'ssoRequired'
  | 'tooMany'
  | 'failed';

/**
 * Sign in to `team` with a passkey: the browser's prompt (or, with `autofill`, its autofill list under
 * the e-mail field where the browser has one, waiting until the user picks one), then the server's
 * check. With `secondStep` it finishes the browser's pending sign-in, which only that user's passkey
 * does. `onChosen` runs once the user has chosen, before the server answers. Its own chunk: the
 * sign-in page loads it only to use it.
 */
export async function passkeySignIn(
  ctx: ApiContext,
  team: string,
  {
    autofill = false,
    secondStep = false,
    onChosen,
  }: { autofill?: boolean; secondStep?: boolean; onChosen?: () => void } = {},
): Promise<PasskeyOutcome> {
  // Without autofill for passkeys (conditional mediation) there is only the button.
  if (autofill && !(await browserSupportsWebAuthnAutofill())) return 'cancelled';
  try {
    const optionsJSON = await getSignInOptions(ctx, secondStep ? undefined : team);
    // Ended while asking (the button's ceremony took over): starting now would cancel the newer one.
    if (ctx.signal?.aborted) return 'cancelled';
    const response = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
    onChosen?.();
    await signInWithPasskey(ctx, response, { teamName: team, secondStep });
    return 'signedIn';
  } catch (error) {
    return outcomeOf(error);
  }
}

const MESSAGES: Record<Exclude<PasskeyOutcome, 'signedIn'>, string> = {
  cancelled: 'passkey.cancelled',
  unavailable: 'passkey.unavailable',
  refused: 'passkey.refused',
  removed: 'passkey.removed',
  turnedOff: 'passkey.turnedOff',
  locked: 'login.locked',
  ssoRequired: 'login.ssoRequired',
  tooMany: 'login.tooMany',
  failed: 'common.failed',
};

/** The key of the message for a failed passkey sign-in, once the texts it may need are in the store. */
export async function passkeyMessage(
  i18n: I18n,
  outcome: Exclude<PasskeyOutcome, 'signedIn'>,
): Promise<string> {
  await addTextPart(i18n, 'security').catch(() => undefined);
  return MESSAGES[outcome];
}

/** End a waiting ceremony (the autofill request when the screen goes). */
export function cancelPasskey(): void {
  WebAuthnAbortService.cancelCeremony();
}

function outcomeOf(error: unknown): PasskeyOutcome {
  if (error instanceof ApiError) {
    // No account has it: removed from its account — not a passkey of another team.
    if (refusalOf(error).code === 'passkeyUnknown') return 'removed';
    if (error.status === 401 || error.status === 400) return 'refused';
    if (error.status === 403) {
      const { code } = refusalOf(error);
      return code === 'passkeysOff' ? 'turnedOff' : code === 'ssoRequired' ? 'ssoRequired' : 'locked';
    }
    if (error.status === 429) return 'tooMany';
    return 'failed';
  }
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return 'cancelled';
  if (name === 'SecurityError' || name === 'NotSupportedError') return 'unavailable';
  return 'failed';
}
