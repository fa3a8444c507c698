import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, useState } from 'react';
import { Alert } from '@/components/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import { emailFormSchema, type EmailFormInput, type EmailFormValues } from '@/lib/email-field';
import { PasswordResetError, useRequestPasswordReset } from '../api/request-password-reset';
import { RESET_SENT_MESSAGE, UNEXPECTED_FAILURE_MESSAGE } from '../messages';

/** Forgot password: look the account up, have the reset mail sent, and mark a first-time account activated. */
export default function ForgotPasswordModal({ initialEmail, onClose }: { initialEmail: string; onClose: () => void }) {
  // Hidden first and unmounted once the fade-out ends, so the modal animates out and hands focus back.
  const [show, setShow] = useState(true);
  const reset = useRequestPasswordReset();
  // A second click can land before the disabled button re-renders; this keeps it to one request.
  const inFlight = useRef(false);
  const {
    register,
    handleSubmit,
    formState: { errors, touchedFields, isSubmitted, isSubmitting },
  } = useForm<EmailFormInput, unknown, EmailFormValues>({
    resolver: zodResolver(emailFormSchema),
    mode: 'onTouched',
    defaultValues: { email: initialEmail },
  });

  const submit = async ({ email }: EmailFormValues) => {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      await reset.mutateAsync(email);
    } catch {
      // Shown from the mutation's state below.
    } finally {
      inFlight.current = false;
    }
  };

  // The spec: field errors only once the field has been touched (or a submit was tried).
  const fieldError = touchedFields.email || isSubmitted ? errors.email?.message : undefined;
  const failure =
    reset.error instanceof PasswordResetError ? reset.error.message : reset.error ? UNEXPECTED_FAILURE_MESSAGE : null;
  const hide = () => setShow(false);

  return (
    <Modal show={show} onHide={hide} onExited={onClose} centered aria-labelledby="forgot-password-title">
      <Modal.Header closeButton>
        <Modal.Title id="forgot-password-title">Forgot Password</Modal.Title>
      </Modal.Header>
      {reset.isSuccess ? (
        <>
          <Modal.Body>
            <p id="forgot-password-sent" className="mb-0">
              {RESET_SENT_MESSAGE}
            </p>
          </Modal.Body>
          <Modal.Footer>
            {/* Focus moves here as the form goes away; the description reads the message out with it. */}
            <Button variant="primary" onClick={hide} autoFocus aria-describedby="forgot-password-sent">
              Back to Login
            </Button>
          </Modal.Footer>
        </>
      ) : (
        <Form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
          <Modal.Body>
            {failure && <Alert variant="danger">{failure}</Alert>}
            <Form.Group controlId="forgot-password-email">
              <Form.Label>Email address</Form.Label>
              <Form.Control
                type="email"
                required
                autoComplete="email"
                inputMode="email"
                autoFocus
                isInvalid={fieldError !== undefined}
                aria-invalid={fieldError !== undefined}
                aria-describedby="forgot-password-email-error"
                {...register('email')}
              />
              {/* Always rendered, with room for one line, so a message appearing on blur does not move
                  the buttons away from a click that caused the blur. */}
              <div id="forgot-password-email-error" className="form-field-feedback">
                {fieldError}
              </div>
            </Form.Group>
          </Modal.Body>
          <Modal.Footer>
            <Button variant="outline-secondary" onClick={hide}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={isSubmitting}>
              Submit
            </Button>
          </Modal.Footer>
        </Form>
      )}
    </Modal>
  );
}
