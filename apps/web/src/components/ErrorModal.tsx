import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/**
 * The spec's error modal: title "Error", the message, and "Continue" that closes it. `onExited` runs once it
 * has faded out: the place to put focus back when the control that was focused before it has gone (e.g.
 * inside another modal that closed as this one opened).
 */
export function ErrorModal({
  message,
  onClose,
  onExited,
}: {
  message: string | null;
  onClose: () => void;
  onExited?: () => void;
}) {
  return (
    <Modal show={message !== null} onHide={onClose} onExited={onExited} centered aria-labelledby="error-modal-title">
      <Modal.Header closeButton>
        <Modal.Title id="error-modal-title">Error</Modal.Title>
      </Modal.Header>
      <Modal.Body>{message}</Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onClose}>
          Continue
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
