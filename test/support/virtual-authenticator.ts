import type { CDPSession, Page } from 'playwright-core';

/** A credential the virtual authenticator holds (CDP `WebAuthn.Credential`). */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  userHandle?: string;
  /** PKCS#8, base64. */
  privateKey: string;
  signCount: number;
}

/** Chromium's own WebAuthn authenticator for one page: a platform passkey provider that always agrees. */
export interface VirtualAuthenticator {
  /** The passkeys it holds. */
  credentials(): Promise<VirtualCredential[]>;
  /** Whether the user "touches" it: when false, ceremonies wait (as for a user who walks away). */
  setPresence(present: boolean): Promise<void>;
  /**
   * Whether the user passes its check (fingerprint, PIN): when false, a ceremony that requires it fails
   * at once with `NotAllowedError`, as when the user cancels the browser's prompt.
   */
  setUserVerified(verified: boolean): Promise<void>;
  /** A copy of a credential it holds, added to another page's authenticator (another device). */
  exportCredential(id: string): Promise<VirtualCredential>;
  importCredential(credential: VirtualCredential): Promise<void>;
}

/**
 * Attach a virtual authenticator (CDP `WebAuthn.addVirtualAuthenticator`) to a page: internal
 * (platform), CTAP 2.1 with resident keys and user verification, so passkeys are discoverable and the
 * conditional (autofill) request works as on a phone or a laptop with a fingerprint reader.
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
    async setPresence(present) {
      await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: present });
    },
    async setUserVerified(verified) {
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: verified });
    },
    async exportCredential(id) {
      const { credential } = await cdp.send('WebAuthn.getCredential', { authenticatorId, credentialId: id });
      return credential;
    },
    async importCredential(credential) {
      await cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
    },
  };
}
