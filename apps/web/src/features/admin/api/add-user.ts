import { useMutation } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { serverMessageOf, statusTextOf } from '../messages';

const userPath = (email: string) => `/users/${encodeURIComponent(email)}`;

/** Creates the account and its row: bearer token, JSON content type, empty body (the spec's call). */
export async function createUser(api: ApiClient, email: string): Promise<void> {
  await api.request(userPath(email), { method: 'POST', auth: true, json: null });
}

/** Registers the id the admin just created; the spec sends this one without an authorization header. */
export async function registerUser(api: ApiClient, email: string): Promise<void> {
  await api.request('/users', { method: 'POST', json: { userId: email } });
}

/** A step of adding a user that failed; `message` is the one the spec shows for that step. */
export class AddUserError extends Error {}

/** The spec's add: create, then register; a create failure shows the server's message, a register one its status text. */
export async function addUser(api: ApiClient, email: string): Promise<void> {
  try {
    await createUser(api, email);
  } catch (error) {
    throw new AddUserError(serverMessageOf(error), { cause: error });
  }
  try {
    await registerUser(api, email);
  } catch (error) {
    throw new AddUserError(statusTextOf(error), { cause: error });
  }
}

export function useAddUser(mutationConfig: MutationConfig<string> = {}) {
  const api = useApiClient();
  return useMutation({ ...mutationConfig, mutationFn: (email: string) => addUser(api, email) });
}
