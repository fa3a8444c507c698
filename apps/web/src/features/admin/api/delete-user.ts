import { removedUserSchema, type RemovedUser } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

/**
 * The spec's delete. The answer says whether the sign-in account is gone too, or its deletion is still
 * pending at the identity provider (the person is refused either way).
 */
export async function deleteUser(api: ApiClient, email: string): Promise<RemovedUser> {
  const { data } = await api.request(`/users/${encodeURIComponent(email)}`, {
    method: 'DELETE',
    auth: true,
    schema: removedUserSchema,
  });
  return data;
}

export function useDeleteUser(mutationConfig: MutationConfig<string, RemovedUser> = {}) {
  const api = useApiClient();
  return useMutation({ ...mutationConfig, mutationFn: (email: string) => deleteUser(api, email) });
}
