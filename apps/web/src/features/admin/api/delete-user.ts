import { useMutation } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export async function deleteUser(api: ApiClient, email: string): Promise<void> {
  await api.request(`/users/${encodeURIComponent(email)}`, { method: 'DELETE', auth: true });
}

export function useDeleteUser(mutationConfig: MutationConfig<string> = {}) {
  const api = useApiClient();
  return useMutation({ ...mutationConfig, mutationFn: (email: string) => deleteUser(api, email) });
}
