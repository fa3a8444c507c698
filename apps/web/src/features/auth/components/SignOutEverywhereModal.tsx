import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { ApiError, useApiClient } from '@/lib/api-client';
import { endOwnSessions } from '../api/sign-out-everywhere';
import { SIGN_OUT_EVERYWHERE_EXPLAINED, SIGN_OUT_EVERYWHERE_FAILED, SIGN_OUT_EVERYWHERE_TITLE } from '../messages';

/**
 * Confirms "Sign out everywhere", then ends every session on the server and signs out here as Sign Out
 * does (`onSignedOut`). Should the server not manage it, the person stays signed in and is told so.
 */
export default function SignOutEverywhereModal({
  onCancel,
  onSignedOut,
}: {
  onCancel: () => void;
  onSignedOut: () => Promise<void>;
}) {
  const api = useApiClient();
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setWorking(true);
    setError(null);
    try {
      await endOwnSessions(api);
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.serverMessage ? failure.serverMessage : SIGN_OUT_EVERYWHERE_FAILED,
      );
      setWorking(false);
      return;
    }
    await onSignedOut();
  };

  return (
    <Modal show onHide={onCancel} centered aria-labelledby="sign-out-everywhere-title">
      <Modal.Header closeButton>
        <Modal.Title id="sign-out-everywhere-title">{SIGN_OUT_EVERYWHERE_TITLE}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">{SIGN_OUT_EVERYWHERE_EXPLAINED}</p>
        {error && (
          <div className="alert alert-danger mt-3 mb-0" role="alert">
            {error}
          </div>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          variant="danger"
          disabled={working}
          className="d-inline-flex align-items-center gap-2"
          onClick={() => void confirm()}
        >
          {working && <Spinner animation="border" size="sm" aria-hidden="true" />}
          Sign out everywhere
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
