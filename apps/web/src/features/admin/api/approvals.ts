import {
  approvalDoneSchema,
  approvalListSchema,
  approvalSchema,
  type Approval,
  type ApprovalDone,
} from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { adminKeys } from './query-keys';

/** GET /approvals: promotions and passkey resets waiting for a second administrator. */
export async function getApprovals(api: ApiClient, signal?: AbortSignal): Promise<Approval[]> {
  const { data } = await api.request('/approvals', { auth: true, schema: approvalListSchema, signal });
  return data;
}

export const approvalsQueryOptions = (api: ApiClient) =>
  queryOptions({ queryKey: adminKeys.approvals, queryFn: ({ signal }) => getApprovals(api, signal), retry: false });

export function useApprovals() {
  const api = useApiClient();
  return useQuery(approvalsQueryOptions(api));
}

/** POST /approvals/<id>/approve: the change is made by this admin, who alone is shown its enrollment code. */
export async function approve(api: ApiClient, id: number): Promise<ApprovalDone> {
  const { data } = await api.request(`/approvals/${id}/approve`, {
    method: 'POST',
    auth: true,
    schema: approvalDoneSchema,
  });
  return data;
}

/** POST /approvals/<id>/reject: nothing changes (whoever asked withdraws it the same way). */
export async function reject(api: ApiClient, id: number): Promise<Approval> {
  const { data } = await api.request(`/approvals/${id}/reject`, { method: 'POST', auth: true, schema: approvalSchema });
  return data;
}

/** Approves or turns down a request; settles once the list and the approvals have been reloaded. */
export function useDecideApproval() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: adminKeys.change,
    mutationFn: ({ id, decision }: { id: number; decision: 'approve' | 'reject' }): Promise<ApprovalDone> =>
      decision === 'approve' ? approve(api, id) : reject(api, id).then((approval) => ({ approval })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
