import { useRef, useState, type ChangeEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { useApiClient } from '@/lib/api-client';
import { bulkAdd, type BulkResult } from '../bulk/bulk-add';
import { MAX_BULK_ADDRESSES, parseAddresses } from '../bulk/parse-addresses';
import { fileUnreadableMessage } from '../messages';
import { BulkResults } from './BulkResults';

type Phase = 'edit' | 'running' | 'done';

const count = new Intl.NumberFormat('en-GB');

function BulkAddBody({ onClose, onChanged }: { onClose: () => void; onChanged: () => void }) {
  const api = useApiClient();
  const [text, setText] = useState('');
  const [phase, setPhase] = useState<Phase>('edit');
  const [results, setResults] = useState<BulkResult[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const stopRequested = useRef(false);
  const addresses = parseAddresses(text);
  const tooMany = addresses.length > MAX_BULK_ADDRESSES;

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      setText(await file.text());
      setFileError(null);
    } catch {
      setFileError(fileUnreadableMessage(file.name));
    }
  };

  const run = async () => {
    stopRequested.current = false;
    setResults([]);
    setPhase('running');
    await bulkAdd(api, addresses, {
      onResult: (result) => setResults((previous) => [...previous, result]),
      shouldStop: () => stopRequested.current,
    });
    setPhase('done');
    onChanged();
  };

  const running = phase === 'running';
  return (
    <>
      <Modal.Header closeButton={!running}>
        <Modal.Title id="bulk-add-title">Bulk add</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {phase === 'edit' ? (
          <>
            <Form.Group className="mb-3" controlId="bulk-add-addresses">
              <Form.Label>Email addresses</Form.Label>
              <Form.Control
                as="textarea"
                rows={8}
                value={text}
                onChange={(event) => setText(event.target.value)}
                aria-describedby="bulk-add-help"
                spellCheck={false}
              />
              <Form.Text id="bulk-add-help">One per line, or separated by commas or semicolons.</Form.Text>
            </Form.Group>
            <Form.Group controlId="bulk-add-file">
              <Form.Label>Or choose a CSV file</Form.Label>
              <Form.Control type="file" accept=".csv,.txt,text/csv,text/plain" onChange={onFile} />
            </Form.Group>
            {fileError && (
              <Alert variant="danger" className="mt-3 mb-0">
                {fileError}
              </Alert>
            )}
            <p className="mt-3 mb-0" aria-live="polite">
              {tooMany
                ? `${count.format(addresses.length)} addresses found: at most ${count.format(MAX_BULK_ADDRESSES)} at a time.`
                : `${count.format(addresses.length)} ${addresses.length === 1 ? 'address' : 'addresses'} found.`}
            </p>
          </>
        ) : (
          <>
            <p className="mb-2">
              {count.format(results.length)} of {count.format(addresses.length)} addresses done
            </p>
            {/* The inner bar carries the progressbar role, so it carries the name too. */}
            <ProgressBar className="mb-3">
              <ProgressBar now={results.length} max={addresses.length} aria-label="Bulk add progress" />
            </ProgressBar>
            <BulkResults results={results} />
          </>
        )}
      </Modal.Body>
      <Modal.Footer>
        {phase === 'edit' && (
          <>
            <Button variant="outline-secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="primary" disabled={addresses.length === 0 || tooMany} onClick={run}>
              Add users
            </Button>
          </>
        )}
        {running && (
          <Button variant="outline-danger" onClick={() => (stopRequested.current = true)}>
            Stop
          </Button>
        )}
        {phase === 'done' && (
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        )}
      </Modal.Footer>
    </>
  );
}

/** Adds many users at once, one address at a time, with a result per address. */
export function BulkAddModal({
  show,
  onClose,
  onChanged,
}: {
  show: boolean;
  onClose: () => void;
  onChanged: () => void;
}) {
  return (
    // Static while open: a stray click outside must not hide a run in progress or its results.
    <Modal show={show} onHide={onClose} backdrop="static" size="lg" centered aria-labelledby="bulk-add-title">
      <BulkAddBody onClose={onClose} onChanged={onChanged} />
    </Modal>
  );
}
