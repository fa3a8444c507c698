import { useMutation } from '@tanstack/react-query';
import { ApiError, useApiClient, type ApiClient } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { serverMessageOf, statusTextOf } from '../messages';

const userPath = (email: string) => `/users/${encodeURIComponent(email)}`;

export interface AddUserOptions {
  /**
   * Only after a `foreign-account` refusal, once the admin confirmed it: the sign-in account someone else
   * made for the address is deleted and a new one made. Without it, the spec's call exactly.
   */
  takeOver?: boolean;
}

/** Creates the account and its row: bearer token, JSON content type, empty body (the spec's call). */
export async function createUser(api: ApiClient, email: string, options: AddUserOptions = {}): Promise<void> {
  const path = options.takeOver ? `${userPath(email)}?takeOver=true` : userPath(email);
  await api.request(path, { method: 'POST', auth: true, json: null });
}

/** The refusal that an admin may answer by taking the existing account over. */
export const isForeignAccountRefusal = (error: unknown) =>
  error instanceof AddUserError && error.cause instanceof ApiError && error.cause.code === 'foreign-account';

/** Registers the id the admin just created; the spec sends this one without an authorization header. */
export async function registerUser(api: ApiClient, email: string): Promise<void> {
  await api.request('/users', { method: 'POST', json: { userId: email } });
}

/** A step of adding a user that failed; `message` is the one the spec shows for that step. */
export class AddUserError extends Error {}

/** The spec's add: create, then register; a create failure shows the server's message, a register one its status text. */
export async function addUser(api: ApiClient, email: string, options: AddUserOptions = {}): Promise<void> {
  try {
    await createUser(api, email, options);
  } catch (error) {
    throw new AddUserError(serverMessageOf(error), { cause: error });
  }
  try {
    await registerUser(api, email);
  } catch (error) {
    throw new AddUserError(statusTextOf(error), { cause: error });
  }
}

export function useAddUser(mutationConfig: MutationConfig<{ email: string } & AddUserOptions> = {}) {
  const api = useApiClient();
  return useMutation({
    ...mutationConfig,
    mutationFn: ({ email, ...options }: { email: string } & AddUserOptions) => addUser(api, email, options),
  });
}
