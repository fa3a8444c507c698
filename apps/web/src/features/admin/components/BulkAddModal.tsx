import { MAX_BULK_ADDRESSES, type BulkAddResult } from '@portal/contract';
import { useMemo, useState } from 'react';
import { Alert } from '@/components/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { bulkAddUsers } from '../api/bulk-users';
import { parseAddresses } from '../bulk/parse-addresses';
import type { ActionFeedback } from '../hooks/use-action-feedback';
import { useBulkJob, type BulkJobState } from '../hooks/use-bulk-job';
import { bulkAddSummary, bulkProgress, haltedMessage, moreNotAdded, notAddedLine, stoppingMessage } from '../messages';
import { BulkAddForm } from './BulkAddForm';
import { BulkResults } from './BulkResults';

const lost = (input: string, message: string): BulkAddResult => ({ input, outcome: 'failed', message });

function summaryOf(state: BulkJobState<BulkAddResult>) {
  const count = (outcome: BulkAddResult['outcome']) => state.results.filter((r) => r.outcome === outcome).length;
  const counts = {
    added: count('added'),
    exists: count('exists'),
    invalid: count('invalid'),
    failed: count('failed'),
    skipped: state.skipped.length,
  };
  // Each address not added for a reason the admin can act on, named: a count alone hides which ones to fix.
  const notAdded = state.results
    .filter((result) => result.outcome === 'invalid' || result.outcome === 'failed')
    .map((result) =>
      notAddedLine(
        result.input,
        result.message ?? (result.outcome === 'invalid' ? 'not a valid e-mail address' : undefined),
      ),
    );
  return {
    text: bulkAddSummary(counts),
    complete: counts.invalid + counts.failed + counts.skipped === 0,
    notAdded:
      notAdded.length > MAX_NAMED
        ? [...notAdded.slice(0, MAX_NAMED), moreNotAdded(notAdded.length - MAX_NAMED)]
        : notAdded,
  };
}

/** How many addresses the notice names; the modal's results list them all. */
const MAX_NAMED = 10;

/**
 * Adds many users at once through the bulk call, 50 addresses a call, with a result per address. While a
 * run is under way the modal cannot be closed (no ×, Escape or backdrop): Stop ends it, at once for every
 * address not yet sent. The run ends with its summary, here and in a notice above the list.
 */
export function BulkAddModal({
  show,
  onClose,
  feedback,
}: {
  show: boolean;
  onClose: () => void;
  feedback: ActionFeedback;
}) {
  const [finance, setFinance] = useState(false);
  const job = useBulkJob((api, chunk) => bulkAddUsers(api, chunk, { finance }), lost);
  const [text, setText] = useState('');
  const addresses = useMemo(() => parseAddresses(text), [text]);
  const { phase } = job.state;
  const busy = phase === 'running' || phase === 'stopping';
  const summary = summaryOf(job.state);

  const run = async () => {
    const finished = summaryOf(await job.start(addresses));
    feedback.succeed({
      text: finished.text,
      tone: finished.complete ? 'success' : 'warning',
      ...(finished.notAdded.length > 0 ? { details: finished.notAdded } : {}),
    });
  };
  const close = () => {
    if (!busy) onClose();
  };
  const forget = () => {
    setText('');
    setFinance(false);
    job.reset();
  };

  return (
    <Modal
      show={show}
      onHide={close}
      onExited={forget}
      // A stray click outside never closes it; Escape does only when no run is under way.
      backdrop="static"
      keyboard={!busy}
      size="lg"
      centered
      aria-labelledby="bulk-add-title"
    >
      <Modal.Header closeButton={!busy}>
        <Modal.Title id="bulk-add-title">Bulk add</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {phase === 'idle' ? (
          <BulkAddForm text={text} onText={setText} found={addresses.length} finance={finance} onFinance={setFinance} />
        ) : (
          <>
            <p className="mb-2">{bulkProgress(job.state.results.length, job.state.total)}</p>
            {/* The inner bar carries the progressbar role, so it carries the name too. */}
            <ProgressBar className="mb-3">
              <ProgressBar now={job.state.results.length} max={job.state.total} aria-label="Bulk add progress" />
            </ProgressBar>
            <div role="status" className="mb-3">
              {phase === 'stopping' && stoppingMessage(job.state.skipped.length)}
              {phase === 'done' && <strong>{summary.text}</strong>}
            </div>
            {job.state.haltedBy && <Alert variant="warning">{haltedMessage(job.state.haltedBy)}</Alert>}
            <BulkResults results={job.state.results} skipped={job.state.skipped} />
          </>
        )}
      </Modal.Body>
      <Modal.Footer>
        {phase === 'idle' && (
          <>
            <Button variant="outline-secondary" onClick={close}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={addresses.length === 0 || addresses.length > MAX_BULK_ADDRESSES}
              onClick={() => void run()}
            >
              Add users
            </Button>
          </>
        )}
        {busy && (
          // Not `disabled` while stopping, which would drop the focus to the page behind the modal.
          <Button variant="outline-danger" autoFocus aria-disabled={phase === 'stopping'} onClick={job.stop}>
            {phase === 'stopping' ? 'Stopping…' : 'Stop'}
          </Button>
        )}
        {phase === 'done' && (
          <Button variant="primary" autoFocus onClick={close}>
            Done
          </Button>
        )}
      </Modal.Footer>
    </Modal>
  );
}
