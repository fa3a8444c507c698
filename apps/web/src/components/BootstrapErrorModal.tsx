import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { ErrorModalProps } from './error-modal-props';

/**
 * The spec's error modal drawn with react-bootstrap's Modal, loaded after the first paint by ErrorModal: title
 * "Error", the message, and "Continue" that closes it. When the server answered, its request id is shown small
 * beside "Continue" as a reference to quote to support. `onExited` runs once it has faded out: the place to put
 * focus back when the control that was focused before it has gone (e.g. inside another modal that closed as
 * this one opened).
 */
export default function BootstrapErrorModal({ message, reference, onClose, onExited }: ErrorModalProps) {
  return (
    <Modal show={message !== null} onHide={onClose} onExited={onExited} centered aria-labelledby="error-modal-title">
      <Modal.Header closeButton>
        <Modal.Title id="error-modal-title">Error</Modal.Title>
      </Modal.Header>
      <Modal.Body>{message}</Modal.Body>
      <Modal.Footer>
        {reference && (
          <small className="me-auto text-body-secondary" data-testid="error-reference">
            Reference: <span className="font-monospace user-select-all">{reference}</span>
          </small>
        )}
        <Button variant="primary" onClick={onClose}>
          Continue
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
