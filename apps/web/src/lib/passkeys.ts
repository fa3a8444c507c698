import {
  passkeyCreationOptionsSchema,
  passkeyRequestOptionsSchema,
  stepUpDoneSchema,
  stepUpStatusSchema,
  type StepUpStatus,
} from '@portal/contract';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, useApiClient, type ApiClient } from '@/lib/api-client';

/**
 * The passkey a signed-in administrator or finance user confirms with: where they stand, setting one up,
 * confirming with it. Shared by the admin page and the Invoices page, whose calls both need it.
 */

/**
 * Where this sign-in's passkey stands, cached apart from any page's data: reloading a page's lists after a
 * change must not ask again whether the page may open; a confirmation that runs out meanwhile is asked for
 * when a call is refused.
 */
export const STEP_UP_STATUS_KEY = ['step-up'] as const;

/** The ceremonies' own calls never prompt for a step-up: their refusals are what the prompt shows. */
const ceremonyCall = { method: 'POST', auth: true, promptStepUp: false } as const;

/** GET /me/step-up: does this person have a passkey, and does this sign-in's confirmation still hold? */
export async function getStepUpStatus(api: ApiClient): Promise<StepUpStatus> {
  const { data } = await api.request('/me/step-up', { auth: true, schema: stepUpStatusSchema, promptStepUp: false });
  return data;
}

export const stepUpStatusQueryOptions = (api: ApiClient) =>
  queryOptions({
    queryKey: STEP_UP_STATUS_KEY,
    queryFn: () => getStepUpStatus(api),
    retry: false,
    // Asked on every visit: a confirmation runs out, and another admin may have reset the passkeys.
    staleTime: 0,
  });

export function useStepUpStatus() {
  const api = useApiClient();
  return useQuery({ ...stepUpStatusQueryOptions(api), refetchOnMount: 'always', refetchOnWindowFocus: false });
}

/** The browser has no WebAuthn at all (an old browser, or a test's jsdom). */
class PasskeysUnsupportedError extends Error {}

/**
 * The browser half of WebAuthn, loaded with the first ceremony rather than with the page; checked
 * before the server is asked for a challenge, which an unsupported browser could never answer.
 */
async function webauthnBrowser() {
  const browser = await import('@simplewebauthn/browser');
  if (!browser.browserSupportsWebAuthn()) throw new PasskeysUnsupportedError('WebAuthn is not available');
  return browser;
}

/**
 * Makes a passkey on this device (the browser asks for a fingerprint, face, PIN or key) and stores it; a
 * first passkey goes with the one-time enrollment code the person was given. The answer sets the step-up
 * cookie that confirms this browser.
 */
export async function setUpPasskey(api: ApiClient, enrollmentCode?: string): Promise<void> {
  const { startRegistration } = await webauthnBrowser();
  const code = enrollmentCode ? { enrollmentCode } : {};
  const { data: optionsJSON } = await api.request('/me/passkeys/options', {
    ...ceremonyCall,
    json: code,
    schema: passkeyCreationOptionsSchema,
  });
  // The server's options are WebAuthn's JSON as the library made it; the schema checked the parts relied on.
  const registration = await startRegistration({
    optionsJSON: optionsJSON as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  await api.request('/me/passkeys', { ...ceremonyCall, json: { ...registration, ...code }, schema: stepUpDoneSchema });
}

/** Signs this sign-in's challenge with the person's passkey: the confirmation admin and finance calls need. */
export async function confirmWithPasskey(api: ApiClient): Promise<void> {
  const { startAuthentication } = await webauthnBrowser();
  const { data: optionsJSON } = await api.request('/me/step-up/options', {
    ...ceremonyCall,
    schema: passkeyRequestOptionsSchema,
  });
  const assertion = await startAuthentication({
    optionsJSON: optionsJSON as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  await api.request('/me/step-up', { ...ceremonyCall, json: assertion, schema: stepUpDoneSchema });
}

/** What went wrong in a ceremony, in words a person can act on. */
export function ceremonyFailureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  const { name, code } = error as { name?: string; code?: string };
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return 'This device already holds a passkey for your account: use "Use passkey" instead.';
  }
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return 'The passkey request was cancelled or timed out. Please try again.';
  }
  if (name === 'SecurityError') {
    return "Passkeys work only on the portal's own address. Please open the portal from its usual link.";
  }
  if (error instanceof PasskeysUnsupportedError || name === 'NotSupportedError') {
    return 'This browser cannot use passkeys. Please use a current Chrome, Edge, Safari or Firefox.';
  }
  return `The passkey could not be used: ${error instanceof Error ? error.message : String(error)}`;
}
