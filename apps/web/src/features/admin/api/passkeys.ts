import { passkeysResetSchema, type PasskeysReset } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { adminKeys } from './query-keys';

/**
 * DELETE /users/<email>/passkeys: recovery for an admin who lost their passkey (another admin does it); it
 * signs them out everywhere and answers the enrollment code they set up a new passkey with.
 */
export async function resetPasskeys(api: ApiClient, email: string): Promise<PasskeysReset> {
  const { data } = await api.request(`/users/${encodeURIComponent(email)}/passkeys`, {
    method: 'DELETE',
    auth: true,
    schema: passkeysResetSchema,
  });
  return data;
}

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
