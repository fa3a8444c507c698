import { useCallback, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useApiClient, useStepUpHandler } from '@/lib/api-client';
import { confirmWithPasskey } from '@/lib/passkeys';
import { STEP_UP_PROMPT_DEFAULT, STEP_UP_TITLE } from './step-up-texts';
import { usePasskeyCeremony } from './use-passkey-ceremony';

/**
 * While a page whose calls need a passkey is open (admin, Invoices), a call the server refuses for want of
 * a recent passkey confirmation (it ran out while the person was reading) opens this prompt; once the passkey is used, the
 * refused call goes out again by itself. Calls refused together wait for the one prompt.
 */
export function StepUpPrompt() {
  const api = useApiClient();
  const [message, setMessage] = useState<string | null>(null);
  const { error, setError, working, run } = usePasskeyCeremony();
  const waiting = useRef<((confirmed: boolean) => void)[]>([]);

  const ask = useCallback(
    (serverMessage: string | undefined) =>
      new Promise<boolean>((resolve) => {
        waiting.current.push(resolve);
        setMessage(serverMessage ?? STEP_UP_PROMPT_DEFAULT);
      }),
    [],
  );
  useStepUpHandler(ask);

  const finish = (confirmed: boolean) => {
    const answers = waiting.current;
    waiting.current = [];
    setMessage(null);
    setError(null);
    for (const answer of answers) answer(confirmed);
  };

  const confirm = () =>
    run(async () => {
      await confirmWithPasskey(api);
      finish(true);
    });

  return (
    <Modal
      show={message !== null}
      onHide={() => finish(false)}
      centered
      aria-labelledby="step-up-prompt-title"
      // Above the loading overlay of the action that is waiting for it.
      className="step-up-modal"
      backdropClassName="step-up-backdrop"
    >
      <Modal.Header closeButton>
        <Modal.Title id="step-up-prompt-title">{STEP_UP_TITLE}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">{message}</p>
        {error && (
          <div className="alert alert-danger mt-3 mb-0" role="alert">
            {error}
          </div>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={() => finish(false)}>
          Cancel
        </Button>
        <Button
          variant="primary"
          disabled={working}
          className="d-inline-flex align-items-center gap-2"
          onClick={() => void confirm()}
        >
          {working && <Spinner animation="border" size="sm" aria-hidden="true" />}
          Use passkey
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
