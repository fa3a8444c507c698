import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { adminKeys } from './query-keys';

export async function deleteUser(api: ApiClient, email: string): Promise<void> {
  await api.request(`/users/${encodeURIComponent(email)}`, { method: 'DELETE', auth: true });
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
