import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/**
 * "Are you sure?" with "No" and "Yes"; "Yes" closes the modal and runs the pending action. A destructive
 * action that needs more than the spec's wording (a bulk delete) names itself in `title` and `yesLabel`.
 */
export function ConfirmModal({
  message,
  onNo,
  onYes,
  title = 'Are you sure?',
  yesLabel = 'Yes',
}: {
  message: string | null;
  onNo: () => void;
  onYes: () => void;
  title?: string;
  yesLabel?: string;
}) {
  return (
    <Modal show={message !== null} onHide={onNo} centered aria-labelledby="confirm-modal-title">
      <Modal.Header closeButton>
        <Modal.Title id="confirm-modal-title">{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{message}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onNo}>
          No
        </Button>
        <Button variant="danger" onClick={onYes}>
          {yesLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
