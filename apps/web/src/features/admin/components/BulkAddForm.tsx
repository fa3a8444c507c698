import { MAX_BULK_ADDRESSES } from '@portal/contract';
import { useState, type ChangeEvent } from 'react';
import { Alert } from '@/components/Alert';
import Form from 'react-bootstrap/Form';
import { addressesFound, fileUnreadableMessage } from '../messages';

/** Where the addresses come from: pasted text, or a CSV file read into the same field to check before adding. */
export function BulkAddForm({
  text,
  onText,
  found,
  finance,
  onFinance,
}: {
  text: string;
  onText: (text: string) => void;
  found: number;
  finance: boolean;
  onFinance: (finance: boolean) => void;
}) {
  const [fileError, setFileError] = useState<string | null>(null);
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      onText(await file.text());
      setFileError(null);
    } catch {
      setFileError(fileUnreadableMessage(file.name));
    }
  };
  return (
    <>
      <Form.Group className="mb-3" controlId="bulk-add-addresses">
        <Form.Label>Email addresses</Form.Label>
        <Form.Control
          as="textarea"
          rows={8}
          value={text}
          onChange={(event) => onText(event.target.value)}
          aria-describedby="bulk-add-help"
          spellCheck={false}
        />
        <Form.Text id="bulk-add-help">One per line, or separated by commas or semicolons.</Form.Text>
      </Form.Group>
      <Form.Group controlId="bulk-add-file">
        <Form.Label>Or choose a CSV file</Form.Label>
        <Form.Control type="file" accept=".csv,.txt,text/csv,text/plain" onChange={onFile} />
      </Form.Group>
      <Form.Group className="mt-3" controlId="bulk-add-finance">
        <Form.Check
          type="checkbox"
          label="Give them the finance role too"
          checked={finance}
          onChange={(event) => onFinance(event.target.checked)}
          aria-describedby="bulk-add-finance-help"
        />
        <Form.Text id="bulk-add-finance-help">
          They can then search all invoices and download many at once. Addresses already on the list keep their roles.
        </Form.Text>
      </Form.Group>
      {fileError && (
        <Alert variant="danger" className="mt-3 mb-0">
          {fileError}
        </Alert>
      )}
      <p className="mt-3 mb-0" aria-live="polite">
        {addressesFound(found, MAX_BULK_ADDRESSES)}
      </p>
    </>
  );
}
