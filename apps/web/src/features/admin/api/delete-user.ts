import { removedUserSchema, type RemovedUser } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { adminKeys } from './query-keys';

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

/** Deletes one user; settles once the list (and the audit log it extended) has been reloaded. */
export function useDeleteUser() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: adminKeys.change,
    mutationFn: (email: string) => deleteUser(api, email),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
