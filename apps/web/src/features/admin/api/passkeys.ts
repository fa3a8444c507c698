import {
  approvalRequestedSchema,
  type ApprovalRequested,
  passkeyCreationOptionsSchema,
  passkeyRequestOptionsSchema,
  passkeysResetSchema,
  stepUpDoneSchema,
  stepUpStatusSchema,
  type PasskeysReset,
  type StepUpStatus,
} from '@portal/contract';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, useApiClient, type ApiClient } from '@/lib/api-client';
import { adminKeys } from './query-keys';

/** The ceremonies' own calls never prompt for a step-up: their refusals are what the prompt shows. */
const ceremonyCall = { method: 'POST', auth: true, promptStepUp: false } as const;

/** GET /me/step-up: does this admin have a passkey, and does this sign-in's confirmation still hold? */
export async function getStepUpStatus(api: ApiClient): Promise<StepUpStatus> {
  const { data } = await api.request('/me/step-up', { auth: true, schema: stepUpStatusSchema, promptStepUp: false });
  return data;
}

export const stepUpStatusQueryOptions = (api: ApiClient) =>
  queryOptions({
    queryKey: adminKeys.stepUp,
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
 * The browser half of WebAuthn, loaded with the first ceremony rather than with the admin screen; checked
 * before the server is asked for a challenge, which an unsupported browser could never answer.
 */
async function webauthnBrowser() {
  const browser = await import('@simplewebauthn/browser');
  if (!browser.browserSupportsWebAuthn()) throw new PasskeysUnsupportedError('WebAuthn is not available');
  return browser;
}

/**
 * Makes a passkey on this device (the browser asks for a fingerprint, face, PIN or key) and stores it; a
 * first passkey goes with the one-time enrollment code the admin was given. The answer sets the step-up
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

/** Signs this sign-in's challenge with the admin's passkey: the confirmation admin calls need. */
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

/**
 * DELETE /users/<email>/passkeys: recovery for an admin who lost their passkey (another admin does it); it
 * signs them out everywhere and answers the enrollment code they set up a new passkey with, or, where a
 * third administrator could approve it, waits for them (`approval`, no code).
 */
export async function resetPasskeys(api: ApiClient, email: string): Promise<PasskeysReset | ApprovalRequested> {
  const { data } = await api.request(`/users/${encodeURIComponent(email)}/passkeys`, {
    method: 'DELETE',
    auth: true,
    schema: resetSchema,
  });
  return data;
}

/** A reset that waits for a second administrator (202, no code), or the reset done. */
const resetSchema = {
  parse(value: unknown): PasskeysReset | ApprovalRequested {
    const waiting = approvalRequestedSchema.safeParse(value);
    return waiting.success ? waiting.data : passkeysResetSchema.parse(value);
  },
};

/** Resets another administrator's passkeys; settles once the audit log it extended has been reloaded. */
export function useResetPasskeys() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: adminKeys.change,
    mutationFn: (email: string) => resetPasskeys(api, email),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** What went wrong in a ceremony, in words an admin can act on. */
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
