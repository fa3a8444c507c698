import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/** The spec's error modal: title "Error", the message, and "Continue" that closes it. */
export function ErrorModal({ message, onClose }: { message: string | null; onClose: () => void }) {
  return (
    <Modal show={message !== null} onHide={onClose} centered aria-labelledby="error-modal-title">
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
