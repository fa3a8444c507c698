import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/** The forgot-password flow (issue 5). */
export default function ForgotPasswordModal({ onClose }: { initialEmail: string; onClose: () => void }) {
  return (
    <Modal show onHide={onClose} centered aria-labelledby="forgot-password-title">
      <Modal.Header closeButton>
        <Modal.Title id="forgot-password-title">Forgot Password</Modal.Title>
      </Modal.Header>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Cancel
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
