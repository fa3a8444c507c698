import { sessionsEndedSchema } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';

/** DELETE /users/<email>/sessions: signs that person out on every device (their refresh tokens are revoked). */
export async function endSessions(api: ApiClient, email: string): Promise<void> {
  await api.request(`/users/${encodeURIComponent(email)}/sessions`, {
    method: 'DELETE',
    auth: true,
    schema: sessionsEndedSchema,
  });
}

export function useEndSessions() {
  const api = useApiClient();
  return useMutation({ mutationFn: (email: string) => endSessions(api, email) });
}
