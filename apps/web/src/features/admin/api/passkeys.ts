import {
  approvalRequestedSchema,
  enrollmentCodeShownSchema,
  passkeysResetSchema,
  type ApprovalRequested,
  type EnrollmentCodeShown,
  type PasskeysReset,
} from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { adminKeys } from './query-keys';

/**
 * DELETE /users/<email>/passkeys: recovery for an admin who lost their passkey (another admin does it); it
 * signs them out everywhere and answers the enrollment code they set up a new passkey with, or, where a
 * third administrator could approve it, waits for them (`approval`, no code).
 */
export async function resetPasskeys(api: ApiClient, email: string): Promise<PasskeysReset | ApprovalRequested> {
  const { data } = await api.request(`/users/${encodeURIComponent(email)}/passkeys`, {
    method: 'DELETE',
    auth: true,
    schema: resetSchema,
  });
  return data;
}

/** A reset that waits for a second administrator (202, no code), or the reset done. */
const resetSchema = {
  parse(value: unknown): PasskeysReset | ApprovalRequested {
    const waiting = approvalRequestedSchema.safeParse(value);
    return waiting.success ? waiting.data : passkeysResetSchema.parse(value);
  },
};

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

/**
 * POST /users/<email>/enrollment-code: a fresh code for someone who has not set up a passkey yet, their sessions
 * kept (the code before stops working); for an administrator, where another could approve, a request (202).
 */
export async function newEnrollmentCode(
  api: ApiClient,
  email: string,
): Promise<EnrollmentCodeShown | ApprovalRequested> {
  const { data } = await api.request(`/users/${encodeURIComponent(email)}/enrollment-code`, {
    method: 'POST',
    auth: true,
    schema: {
      parse(value: unknown): EnrollmentCodeShown | ApprovalRequested {
        const waiting = approvalRequestedSchema.safeParse(value);
        return waiting.success ? waiting.data : enrollmentCodeShownSchema.parse(value);
      },
    },
  });
  return data;
}

/** Asks for a new enrollment code; settles once the audit log and approvals it extended have been reloaded. */
export function useNewEnrollmentCode() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: adminKeys.change,
    mutationFn: (email: string) => newEnrollmentCode(api, email),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
