import type { AuditEntry } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { ErrorModal } from '@/components/ErrorModal';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { Pager } from '@/components/Pager';
import { useQueryFailure } from '@/hooks/use-query-failure';
import { formatDateTime } from '@/lib/format-date';
import { useAuditPage, type AuditFilter } from '../api/get-audit-page';
import { PAGE_SIZE } from '../api/paging';
import { adminKeys } from '../api/query-keys';
import { DEFAULT_AUDIT_EVENTS, describeEntry } from '../audit/describe-entry';
import { NO_AUDIT_ENTRIES_MESSAGE, serverMessageOf } from '../messages';
import { AuditFilterForm } from './AuditFilterForm';
import { PendingCleanups } from './PendingCleanups';

const OUTCOMES: Record<AuditEntry['outcome'], { label: string; className: string }> = {
  ok: { label: 'Done', className: 'status-activated' },
  refused: { label: 'Refused', className: 'status-invited' },
  failed: { label: 'Failed', className: 'status-failed' },
};

/**
 * Three columns rather than six on a laptop; on a phone each entry is a card (styles.css): what happened and
 * its result on top, who, from where and the detail under it, then when.
 */
function AuditRow({ entry }: { entry: AuditEntry }) {
  const outcome = OUTCOMES[entry.outcome];
  const { what, target, by, from, detail, times } = describeEntry(entry);
  return (
    <tr className="audit-entry">
      <td className="audit-when">
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </td>
      <td className="audit-event">
        <div>
          <span className="fw-semibold">{what}</span>
          {target && <span className="audit-target"> {target}</span>}
        </div>
        <div className="small admin-note">
          by {by}
          {from && ` from ${from}`}
          {detail && ` · ${detail}`}
          {times && ` · ${times} times`}
        </div>
      </td>
      <td className="audit-result">
        <span className={`badge status-badge ${outcome.className}`}>{outcome.label}</span>
      </td>
    </tr>
  );
}

/** Who added, deleted or was refused what, and when: newest first, a page at a time. */
export function AuditLogPanel() {
  const [page, setPage] = useState(0);
  // Passkey confirmations (one per admin per day) are left out until asked for: they would fill the log.
  const [filter, setFilter] = useState<AuditFilter>({ events: DEFAULT_AUDIT_EVENTS });
  const audit = useAuditPage(page, filter);
  const queryClient = useQueryClient();
  const failure = useQueryFailure(audit.error, serverMessageOf);

  return (
    <section aria-label="Audit log">
      <PendingCleanups />
      <div className="audit-toolbar">
        <AuditFilterForm
          events={filter.events ?? DEFAULT_AUDIT_EVENTS}
          onFilter={(next) => {
            setFilter(next);
            setPage(0);
          }}
        />
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
          <div>
            <Table hover className="admin-table audit-table align-middle mb-0" aria-label="Audit entries">
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
                    <td colSpan={3} className="audit-empty text-center text-body-secondary py-4">
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
