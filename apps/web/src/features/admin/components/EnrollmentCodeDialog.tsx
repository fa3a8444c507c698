import type { EnrollmentCodeIssued } from '@portal/contract';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import {
  NEW_ENROLLMENT_CODE_KEPT,
  NEW_ENROLLMENT_CODE_TITLE,
  newEnrollmentCodeHandOver,
  newEnrollmentCodeLead,
} from '../messages';
import { CopyCode } from './ActionNotice';

export interface ShownCode {
  email: string;
  enrollment: EnrollmentCodeIssued;
}

/**
 * A fresh enrollment code, in a dialog that holds it until the admin closes it: the code is shown nowhere else.
 * The dialog takes focus as it opens; `onExited` (once it has faded out) is where focus goes back to the row.
 */
export function EnrollmentCodeDialog({
  show,
  shown,
  onClose,
  onExited,
}: {
  show: boolean;
  /** Kept while the dialog fades out, so its words do not change. */
  shown: ShownCode | null;
  onClose: () => void;
  onExited: () => void;
}) {
  return (
    <Modal show={show} onHide={onClose} onExited={onExited} centered aria-labelledby="enrollment-code-title">
      <Modal.Header closeButton>
        <Modal.Title id="enrollment-code-title">{NEW_ENROLLMENT_CODE_TITLE}</Modal.Title>
      </Modal.Header>
      {shown && (
        <Modal.Body>
          <p className="mb-1 text-break">{newEnrollmentCodeLead(shown.email)}</p>
          <p className="enrollment-code font-monospace fs-4 fw-semibold mb-3">{shown.enrollment.code}</p>
          <p>{newEnrollmentCodeHandOver(shown.enrollment.expiresAt)}</p>
          <p className="mb-0">{NEW_ENROLLMENT_CODE_KEPT}</p>
        </Modal.Body>
      )}
      <Modal.Footer>
        {shown && (
          <CopyCode
            key={shown.enrollment.code}
            code={shown.enrollment.code}
            onCopied={() => {}}
            buttonClass="btn-outline-primary"
          />
        )}
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
