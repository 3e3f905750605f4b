import assert from 'node:assert/strict';
import type { CDPSession, Page } from 'playwright-core';

/** A credential the virtual authenticator holds (CDP `WebAuthn.Credential`, the fields read here). */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  userHandle?: string;
  signCount: number;
}

/** Chromium's own WebAuthn authenticator for one page: a platform passkey provider that always agrees. */
export interface VirtualAuthenticator {
  /** The passkeys it holds. */
  credentials(): Promise<VirtualCredential[]>;
  /**
   * Whether the user passes its check (fingerprint, PIN): when false, a ceremony that requires it fails
   * at once with `NotAllowedError`, as when the user cancels the browser's prompt.
   */
  setUserVerified(verified: boolean): Promise<void>;
  /** Forget every passkey it holds (a new device). */
  clearCredentials(): Promise<void>;
}

/**
 * Attach a virtual authenticator (CDP `WebAuthn.addVirtualAuthenticator`) to a page: internal
 * (platform), CTAP 2.1 with resident keys and user verification, so passkeys are discoverable, as on a
 * phone or a laptop with a fingerprint reader. (Headless Chromium keeps an autofill request waiting for
 * a pick from its list, which CDP cannot make.)
 */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    async credentials() {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      return credentials as VirtualCredential[];
    },
    async setUserVerified(verified) {
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: verified });
    },
    async clearCredentials() {
      await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    },
  };
}

/**
 * Register a passkey for the token's user in the page's virtual authenticator, as the manage screen
 * does (WebAuthn's JSON forms, Chromium's own parser): the page is on the issuer's origin.
 */
export async function registerPasskey(page: Page, accessToken: string): Promise<void> {
  const status = await page.evaluate(async (token) => {
    const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
    const headers = { authorization: `Bearer ${token}`, 'x-xsrf-token': xsrf };
    const asked = await fetch('/api/user/passkeys/options', { method: 'POST', headers });
    if (!asked.ok) return `${asked.status} ${await asked.text()}`;
    const options = await asked.json();
    const credential = (await navigator.credentials.create({
      publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options),
    })) as PublicKeyCredential;
    const answer = await fetch('/api/user/passkeys', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Test key', response: credential.toJSON() }),
    });
    return answer.ok ? answer.status : `${answer.status} ${await answer.text()}`;
  }, accessToken);
  assert.equal(status, 201);
}
