import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, useApiClient, type ApiClient } from '@/lib/api-client';
import { serverMessageOf, statusTextOf } from '../messages';
import { adminKeys } from './query-keys';

/** The spec's pause between registering a new user and reloading the list. */
export const RELOAD_AFTER_REGISTER_MS = 1000;

const userPath = (email: string) => `/users/${encodeURIComponent(email)}`;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Creates the account and its row: bearer token, JSON content type, empty body (the spec's call). */
export async function createUser(api: ApiClient, email: string): Promise<void> {
  await api.request(userPath(email), { method: 'POST', auth: true, json: null });
}

/** Registers the id the admin just created; the spec sends this one without an authorization header. */
export async function registerUser(api: ApiClient, email: string): Promise<void> {
  await api.request('/users', { method: 'POST', json: { userId: email } });
}

/** A step of adding a user that failed; `message` is the one the spec shows for that step. */
export class AddUserError extends Error {
  constructor(
    message: string,
    readonly step: 'create' | 'register',
    options: { cause: unknown },
  ) {
    super(message, options);
  }

  /** The address was on the list already: a mistake in the field, not a failure of the portal. */
  get alreadyListed(): boolean {
    return this.step === 'create' && this.cause instanceof ApiError && this.cause.status === 409;
  }
}

/** The spec's add: create, then register; a create failure shows the server's message, a register one its status text. */
export async function addUser(api: ApiClient, email: string): Promise<void> {
  try {
    await createUser(api, email);
  } catch (error) {
    throw new AddUserError(serverMessageOf(error), 'create', { cause: error });
  }
  try {
    await registerUser(api, email);
  } catch (error) {
    throw new AddUserError(statusTextOf(error), 'register', { cause: error });
  }
}

/** Adds one user; settles once the list has been reloaded, the spec's 1000 ms after the register call. */
export function useAddUser() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: adminKeys.change,
    mutationFn: (email: string) => addUser(api, email),
    onSuccess: async () => {
      await delay(RELOAD_AFTER_REGISTER_MS);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}
