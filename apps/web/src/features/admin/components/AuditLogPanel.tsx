import type { AuditEntry } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { ErrorModal } from '@/components/ErrorModal';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { useApiClient } from '@/lib/api-client';
import { AUDIT_PAGE_SIZE, listAudit } from '../api/audit-log';
import { serverMessageOf } from '../api/error-text';
import { adminKeys } from '../api/query-keys';
import { useQueryFailure } from '../hooks/use-query-failure';
import { Pager } from './Pager';

const ACTIONS: Record<string, string> = { 'users.add': 'Add user', 'users.remove': 'Delete user' };

const OUTCOMES: Record<AuditEntry['outcome'], { label: string; className: string }> = {
  ok: { label: 'Done', className: 'status-activated' },
  refused: { label: 'Refused', className: 'status-invited' },
  failed: { label: 'Failed', className: 'status-failed' },
};

const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function AuditRow({ entry }: { entry: AuditEntry }) {
  const outcome = OUTCOMES[entry.outcome];
  return (
    <tr>
      <td className="text-nowrap">
        <time dateTime={entry.at}>{time.format(new Date(entry.at))}</time>
      </td>
      <td className="text-break">{entry.actor ?? 'anonymous'}</td>
      <td>{ACTIONS[entry.action] ?? <code>{entry.action}</code>}</td>
      <td className="text-break">{entry.target ?? ''}</td>
      <td>
        <span className={`badge status-badge ${outcome.className}`}>{outcome.label}</span>
      </td>
      <td className="small">{entry.detail ?? ''}</td>
    </tr>
  );
}

/** Who added, deleted or was refused what, and when: newest first, a page at a time. */
export function AuditLogPanel() {
  const api = useApiClient();
  const [page, setPage] = useState(0);
  const audit = useQuery({
    queryKey: adminKeys.auditPage(page),
    queryFn: ({ signal }) => listAudit(api, page, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const failure = useQueryFailure(audit.error, serverMessageOf);

  return (
    <section aria-label="Audit log">
      <div className="d-flex justify-content-end mb-3">
        <Button variant="outline-primary" size="sm" onClick={() => void audit.refetch()} disabled={audit.isFetching}>
          Refresh
        </Button>
      </div>
      {audit.data && (
        <div className="card shadow-sm">
          <div className="table-responsive">
            <Table hover className="admin-table align-middle mb-0" aria-label="Audit entries">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">User</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Detail</th>
                </tr>
              </thead>
              <tbody>
                {audit.data.entries.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="text-center text-body-secondary py-4">
                      Nothing recorded yet.
                    </td>
                  </tr>
                ) : (
                  audit.data.entries.map((entry) => <AuditRow key={entry.id} entry={entry} />)
                )}
              </tbody>
            </Table>
          </div>
          <div className="card-footer bg-body">
            <Pager page={page} pageSize={AUDIT_PAGE_SIZE} total={audit.data.total} noun="entries" onPage={setPage} />
          </div>
        </div>
      )}
      <ErrorModal message={failure.message} onClose={failure.dismiss} />
      <LoadingOverlay show={audit.isPending} />
    </section>
  );
}
