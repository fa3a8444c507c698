import { allowedUserSchema } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { useAuth, type AuthClient } from '@/lib/auth';
import { resetContinueUrl } from '@/lib/paths';

/** PATCH /users/<email> { admin }: make someone an administrator, or stop them being one. */
export async function setAdmin(api: ApiClient, email: string, admin: boolean): Promise<void> {
  await api.request(`/users/${encodeURIComponent(email)}`, {
    method: 'PATCH',
    auth: true,
    json: { admin },
    schema: allowedUserSchema,
  });
}

export function useSetAdmin() {
  const api = useApiClient();
  return useMutation({
    mutationFn: ({ email, admin }: { email: string; admin: boolean }) => setAdmin(api, email, admin),
  });
}

/** Resends an invitation: the identity provider's password-reset mail, the same one "Forgot Password" sends. */
export const resendInvitation = (auth: AuthClient, email: string) => auth.sendPasswordReset(email, resetContinueUrl());

export function useResendInvitation() {
  const { client } = useAuth();
  return useMutation({ mutationFn: (email: string) => resendInvitation(client, email) });
}
