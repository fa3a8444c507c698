import Table from 'react-bootstrap/Table';
import type { BulkOutcome, BulkResult } from '../bulk/bulk-add';
import { EmailText } from './EmailText';

const LABELS: Record<BulkOutcome, string> = {
  added: 'Added',
  exists: 'Already on the list',
  invalid: 'Invalid',
  failed: 'Failed',
};

const BADGE_CLASS: Record<BulkOutcome, string> = {
  added: 'status-activated',
  exists: 'status-neutral',
  invalid: 'status-invited',
  failed: 'status-failed',
};

export function BulkResults({ results }: { results: BulkResult[] }) {
  const tally = (outcome: BulkOutcome) => results.filter((result) => result.outcome === outcome).length;
  return (
    <>
      <p aria-live="polite">
        {tally('added')} added, {tally('exists')} already on the list, {tally('invalid')} invalid, {tally('failed')}{' '}
        failed
      </p>
      <div className="bulk-results">
        <Table size="sm" className="mb-0" aria-label="Bulk add results">
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {results.map((result) => (
              <tr key={result.input}>
                <td className="email-cell">
                  <EmailText email={result.input} />
                </td>
                <td>
                  <span className={`badge status-badge ${BADGE_CLASS[result.outcome]}`}>{LABELS[result.outcome]}</span>
                  {result.detail && result.outcome !== 'exists' && (
                    <div className="small text-body-secondary">{result.detail}</div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    </>
  );
}
