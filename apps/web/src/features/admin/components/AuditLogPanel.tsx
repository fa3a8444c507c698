import type { AuditEntry } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { ErrorModal } from '@/components/ErrorModal';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { useQueryFailure } from '@/hooks/use-query-failure';
import { formatDateTime } from '@/lib/format-date';
import { useAuditPage, type AuditFilter } from '../api/get-audit-page';
import { PAGE_SIZE } from '../api/paging';
import { adminKeys } from '../api/query-keys';
import { NO_AUDIT_ENTRIES_MESSAGE, serverMessageOf } from '../messages';
import { AuditFilterForm } from './AuditFilterForm';
import { Pager } from './Pager';
import { PendingCleanups } from './PendingCleanups';

const ACTIONS: Record<string, string> = {
  'users.add': 'Add user',
  'users.remove': 'Delete user',
  'users.account-cleanup': 'Delete sign-in account of',
  'users.take-over-account': 'Take over sign-in account of',
  'users.make-admin': 'Make admin',
  'users.remove-admin': 'Remove admin',
  'invoice.download': 'Open invoice',
  'passkeys.enroll': 'Set up passkey',
  'passkeys.step-up': 'Confirm with passkey',
  'passkeys.reset': 'Reset passkeys',
  'sessions.end': 'End sessions',
};

const OUTCOMES: Record<AuditEntry['outcome'], { label: string; className: string }> = {
  ok: { label: 'Done', className: 'status-activated' },
  refused: { label: 'Refused', className: 'status-invited' },
  failed: { label: 'Failed', className: 'status-failed' },
};

// Three columns rather than six, so a row still reads on a phone without scrolling sideways.
function AuditRow({ entry }: { entry: AuditEntry }) {
  const outcome = OUTCOMES[entry.outcome];
  return (
    <tr>
      <td className="audit-when">
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </td>
      <td className="text-break">
        <div>
          <span className="fw-semibold">{ACTIONS[entry.action] ?? <code>{entry.action}</code>}</span>
          {entry.target && <> {entry.target}</>}
        </div>
        <div className="small text-body-secondary">
          by {entry.actor ?? 'an anonymous caller'}
          {entry.client && ` from ${entry.client}`}
          {entry.detail && ` · ${entry.detail}`}
          {entry.count > 1 && ` · ${entry.count} times`}
        </div>
      </td>
      <td>
        <span className={`badge status-badge ${outcome.className}`}>{outcome.label}</span>
      </td>
    </tr>
  );
}

/** Who added, deleted or was refused what, and when: newest first, a page at a time. */
export function AuditLogPanel() {
  const [page, setPage] = useState(0);
  const [filter, setFilter] = useState<AuditFilter>({});
  const audit = useAuditPage(page, filter);
  const queryClient = useQueryClient();
  const failure = useQueryFailure(audit.error, serverMessageOf);

  return (
    <section aria-label="Audit log">
      <PendingCleanups />
      <AuditFilterForm
        onFilter={(next) => {
          setFilter(next);
          setPage(0);
        }}
      />
      <div className="d-flex justify-content-end mb-3">
        <Button
          variant="outline-primary"
          size="sm"
          onClick={() => {
            void audit.refetch();
            void queryClient.invalidateQueries({ queryKey: adminKeys.accountCleanups });
          }}
          disabled={audit.isFetching}
        >
          Refresh
        </Button>
      </div>
      {audit.data && (
        <div className="card shadow-sm">
          <div className="table-responsive">
            <Table hover className="admin-table align-middle mb-0" aria-label="Audit entries">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {audit.data.entries.length === 0 ? (
                  <tr>
                    <td colSpan={3} className="text-center text-body-secondary py-4">
                      {NO_AUDIT_ENTRIES_MESSAGE}
                    </td>
                  </tr>
                ) : (
                  audit.data.entries.map((entry) => <AuditRow key={entry.id} entry={entry} />)
                )}
              </tbody>
            </Table>
          </div>
          <div className="card-footer bg-body">
            <Pager page={page} pageSize={PAGE_SIZE} total={audit.data.total} noun="entries" onPage={setPage} />
          </div>
        </div>
      )}
      <ErrorModal message={failure.message} reference={failure.reference} onClose={failure.dismiss} />
      <LoadingOverlay show={audit.isPending} />
    </section>
  );
}
