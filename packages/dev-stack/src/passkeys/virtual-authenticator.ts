import type { CDPSession, Page } from 'playwright-core';
import { enrollPasskey, type PortalCall } from './ceremony-client.ts';
import { createSoftwareAuthenticator, toVirtualCredential } from './software-authenticator.ts';

/** Chromium's virtual authenticator on one page (the DevTools protocol's WebAuthn domain). */
export interface VirtualAuthenticator {
  cdp: CDPSession;
  authenticatorId: string;
  /** The passkeys it holds, and their sign counts. */
  credentials(): Promise<{ credentialId: string; signCount: number }[]>;
}

/**
 * Gives `page` a fingerprint reader: a platform authenticator that verifies the user at once, so a passkey
 * prompt is answered without anyone touching anything.
 */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    cdp,
    authenticatorId,
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

/**
 * Sets up a passkey of the page's own through the portal, as `call` (a sign-in that may add one: an admin's
 * first, or one confirmed with an earlier passkey), and puts it in the page's authenticator. A fresh key
 * counts its signatures from 0 wherever it signs.
 */
export async function addPagePasskey(virtual: VirtualAuthenticator, call: PortalCall, origin: string) {
  const pageKey = createSoftwareAuthenticator({ origin });
  await enrollPasskey(call, pageKey);
  const [credential] = pageKey.credentials;
  if (!credential) throw new Error('the page passkey was not made');
  await virtual.cdp.send('WebAuthn.addCredential', {
    authenticatorId: virtual.authenticatorId,
    credential: toVirtualCredential(credential),
  });
}
