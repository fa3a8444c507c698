import { sessionsEndedSchema } from '@portal/contract';
import type { ApiClient } from '@/lib/api-client';

/** DELETE /me/sessions: the identity provider ends every session of the signed-in person, this one included. */
export async function endOwnSessions(api: ApiClient): Promise<void> {
  await api.request('/me/sessions', { method: 'DELETE', auth: true, schema: sessionsEndedSchema });
}
