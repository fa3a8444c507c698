import { sessionsEndedSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { adminKeys } from './query-keys';

/** DELETE /users/<email>/sessions: signs that person out on every device (their refresh tokens are revoked). */
export async function endSessions(api: ApiClient, email: string): Promise<void> {
  await api.request(`/users/${encodeURIComponent(email)}/sessions`, {
    method: 'DELETE',
    auth: true,
    schema: sessionsEndedSchema,
  });
}

/** Ends one person's sessions; settles once the audit log it extended has been reloaded. */
export function useEndSessions() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: adminKeys.change,
    mutationFn: (email: string) => endSessions(api, email),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
