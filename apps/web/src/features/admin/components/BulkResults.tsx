import type { BulkAddOutcome, BulkAddResult } from '@portal/contract';
import Table from 'react-bootstrap/Table';

type Shown = BulkAddOutcome | 'skipped';

const LABELS: Record<Shown, string> = {
  added: 'Added',
  exists: 'Already on the list',
  invalid: 'Invalid',
  failed: 'Failed',
  skipped: 'Skipped',
};

const BADGE_CLASS: Record<Shown, string> = {
  added: 'status-activated',
  exists: 'status-neutral',
  invalid: 'status-invited',
  failed: 'status-failed',
  skipped: 'status-neutral',
};

/** A line per address: what the server did with it, and the addresses a Stop left unsent. */
export function BulkResults({ results, skipped }: { results: readonly BulkAddResult[]; skipped: readonly string[] }) {
  const rows = [...results, ...skipped.map((input) => ({ input, outcome: 'skipped' as const, message: undefined }))];
  if (rows.length === 0) return null;
  return (
    // Scrolls when long: focusable and named, so it can be read and scrolled from the keyboard.
    <div className="bulk-results" tabIndex={0} role="region" aria-label="Results per address">
      <Table size="sm" className="mb-0" aria-label="Bulk add results">
        <thead>
          <tr>
            <th scope="col">Address</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.input}>
              <td className="text-break">{row.input}</td>
              <td>
                <span className={`badge status-badge ${BADGE_CLASS[row.outcome]}`}>{LABELS[row.outcome]}</span>
                {row.message && row.outcome !== 'exists' && (
                  <div className="small text-body-secondary">{row.message}</div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
