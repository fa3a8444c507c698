import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/**
 * "Are you sure?" with "No" and "Yes"; "Yes" closes the modal and runs the pending action. An action that
 * needs more than the spec's wording (a bulk delete, a role change) names itself in `title` and `yesLabel`.
 * `onExited` runs once it has faded out: the place to put focus back when the control that opened it has gone.
 */
export function ConfirmModal({
  show,
  message,
  onNo,
  onYes,
  onExited,
  title = 'Are you sure?',
  yesLabel = 'Yes',
  yesVariant = 'danger',
}: {
  /** Open or not; by default, whenever there is a message. Given apart, the words stay while it fades out. */
  show?: boolean;
  message: string | null;
  onNo: () => void;
  onYes: () => void;
  onExited?: () => void;
  title?: string;
  yesLabel?: string;
  /** `primary` for a change that takes nothing away. */
  yesVariant?: 'danger' | 'primary';
}) {
  return (
    <Modal
      show={show ?? message !== null}
      onHide={onNo}
      onExited={onExited}
      centered
      aria-labelledby="confirm-modal-title"
    >
      <Modal.Header closeButton>
        <Modal.Title id="confirm-modal-title">{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{message}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onNo}>
          No
        </Button>
        <Button variant={yesVariant} onClick={onYes}>
          {yesLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
