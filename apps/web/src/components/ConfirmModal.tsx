import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/** "Are you sure?" with "No" and "Yes"; "Yes" closes the modal and runs the pending action. */
export function ConfirmModal({
  message,
  onNo,
  onYes,
}: {
  message: string | null;
  onNo: () => void;
  onYes: () => void;
}) {
  return (
    <Modal show={message !== null} onHide={onNo} centered aria-labelledby="confirm-modal-title">
      <Modal.Header closeButton>
        <Modal.Title id="confirm-modal-title">Are you sure?</Modal.Title>
      </Modal.Header>
      <Modal.Body>{message}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onNo}>
          No
        </Button>
        <Button variant="danger" onClick={onYes}>
          Yes
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
