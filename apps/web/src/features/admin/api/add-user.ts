import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, useApiClient, type ApiClient } from '@/lib/api-client';
import { serverMessageOf, statusTextOf } from '../messages';
import { adminKeys } from './query-keys';

/** The spec's pause between registering a new user and reloading the list. */
export const RELOAD_AFTER_REGISTER_MS = 1000;

const userPath = (email: string) => `/users/${encodeURIComponent(email)}`;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
    // Not a `foreign-account` 409: that one is answered by taking the account over, not by retyping.
    return this.step === 'create' && this.cause instanceof ApiError && this.cause.code === 'conflict';
  }
}

/** The spec's add: create, then register; a create failure shows the server's message, a register one its status text. */
export async function addUser(api: ApiClient, email: string, options: AddUserOptions = {}): Promise<void> {
  try {
    await createUser(api, email, options);
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
    mutationFn: ({ email, ...options }: { email: string } & AddUserOptions) => addUser(api, email, options),
    onSuccess: async () => {
      await delay(RELOAD_AFTER_REGISTER_MS);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}
