import { useMutation } from '@tanstack/react-query';
import { getAccount } from '@/lib/account';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { useAuth, type AuthClient } from '@/lib/auth';
import { reportError } from '@/lib/error-reporting';
import { resetContinueUrl } from '@/lib/paths';
import { readBeforeLogin } from '@/lib/storage';
import type { MutationConfig } from '@/lib/react-query';
import { lookupFailureMessage, mailFailureMessage } from '../messages';

/** A step of the reset that failed; `message` is written for the person in front of the modal. */
export class PasswordResetError extends Error {}

/**
 * The spec's sequence: look the account up without a bearer token, have the identity provider send the
 * reset mail, then mark a not-yet-activated account activated. Each step runs only after the one before
 * succeeded, so an unknown address gets no mail and an unsent mail leaves the account as it was.
 */
export async function requestPasswordReset(api: ApiClient, auth: AuthClient, email: string): Promise<void> {
  let activated: boolean;
  try {
    ({ activated } = await getAccount(api, email, { auth: false }));
  } catch (error) {
    throw new PasswordResetError(lookupFailureMessage(error), { cause: error });
  }

  try {
    await auth.sendPasswordReset(email, resetContinueUrl(readBeforeLogin()));
  } catch (error) {
    throw new PasswordResetError(mailFailureMessage(error), { cause: error });
  }

  if (!activated) {
    try {
      await api.request(`/users/${encodeURIComponent(email)}`, { method: 'PUT', json: { activated: true } });
    } catch (error) {
      // The mail is already on its way, so the person should follow it rather than ask again; the flag
      // is set on their next request, whose lookup still finds the account not activated.
      console.warn('Marking the account activated failed', error);
      reportError(error);
    }
  }
}

export function useRequestPasswordReset(mutationConfig: MutationConfig<string> = {}) {
  const api = useApiClient();
  const { client } = useAuth();
  return useMutation({ ...mutationConfig, mutationFn: (email: string) => requestPasswordReset(api, client, email) });
}
