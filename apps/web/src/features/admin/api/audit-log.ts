import { auditEntryListSchema, type AuditEntry } from '@portal/contract';
import type { ApiClient } from '@/lib/api-client';
import { totalOf } from './admin-users';

export const AUDIT_PAGE_SIZE = 50;

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
}

/** GET /audit: newest first, one page at a time. */
export async function listAudit(api: ApiClient, page: number, signal?: AbortSignal): Promise<AuditPage> {
  const params = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE), offset: String(page * AUDIT_PAGE_SIZE) });
  const { data, headers } = await api.request(`/audit?${params}`, { auth: true, schema: auditEntryListSchema, signal });
  return { entries: data, total: totalOf(headers, data.length) };
}
