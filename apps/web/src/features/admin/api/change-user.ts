import { approvalRequestedSchema, changedUserSchema, type ApprovalRequested, type ChangedUser } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { useAuth, type AuthClient } from '@/lib/auth';
import { resetContinueUrl } from '@/lib/paths';
import { adminKeys } from './query-keys';

/** A promotion that waits for a second administrator (202), or the row as changed. */
const roleChangeSchema = { parse: (value: unknown) => parseRoleChange(value) };
function parseRoleChange(value: unknown): ChangedUser | ApprovalRequested {
  const waiting = approvalRequestedSchema.safeParse(value);
  return waiting.success ? waiting.data : changedUserSchema.parse(value);
}

/**
 * PATCH /users/<email> { admin }: make someone an administrator, or stop them being one. A promotion made at
 * once comes back with the enrollment code a new administrator's first passkey needs; one that waits for a
 * second administrator comes back with `approval`, and no code.
 */
export async function setAdmin(
  api: ApiClient,
  email: string,
  admin: boolean,
): Promise<ChangedUser | ApprovalRequested> {
  const { data } = await api.request(`/users/${encodeURIComponent(email)}`, {
    method: 'PATCH',
    auth: true,
    json: { admin },
    schema: roleChangeSchema,
  });
  return data;
}

/** Changes a role; settles once the list shows it. */
export function useSetAdmin() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: adminKeys.change,
    mutationFn: ({ email, admin }: { email: string; admin: boolean }) => setAdmin(api, email, admin),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** PATCH /users/<email> { finance }: give or take the finance role (the Invoices page). */
export async function setFinance(api: ApiClient, email: string, finance: boolean): Promise<ChangedUser> {
  const { data } = await api.request(`/users/${encodeURIComponent(email)}`, {
    method: 'PATCH',
    auth: true,
    json: { finance },
    schema: changedUserSchema,
  });
  return data;
}

export function useSetFinance() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: adminKeys.change,
    mutationFn: ({ email, finance }: { email: string; finance: boolean }) => setFinance(api, email, finance),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** Resends an invitation: the identity provider's password-reset mail, the same one "Forgot Password" sends. */
export const resendInvitation = (auth: AuthClient, email: string) => auth.sendPasswordReset(email, resetContinueUrl());

export function useResendInvitation() {
  const { client } = useAuth();
  return useMutation({ mutationKey: adminKeys.change, mutationFn: (email: string) => resendInvitation(client, email) });
}
