import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { emailFormSchema, type EmailFormInput, type EmailFormValues } from '@/lib/email-field';
import { TAKE_OVER_HINT, takeOverLabel } from '../messages';

export interface AddUserSubmit {
  (email: string, options: { takeOver: boolean }): void;
}

interface AddUserFormProps {
  onCancel: () => void;
  onSubmit: AddUserSubmit;
  /** The address the server refused because of an account the portal did not make, if any. */
  takeOverOffer: string | null;
}

function AddUserForm({ onCancel, onSubmit, takeOverOffer }: AddUserFormProps) {
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<EmailFormInput, unknown, EmailFormValues>({
    resolver: zodResolver(emailFormSchema),
    // The spec: a field's error shows only once it has been touched (or the form submitted).
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
  const error = errors.email?.message;
  const [takeOver, setTakeOver] = useState(false);
  // Offered only for the very address that was refused: another address starts over without it.
  const typed = (useWatch({ control, name: 'email' }) ?? '').trim().toLowerCase();
  const offered = takeOverOffer !== null && typed === takeOverOffer;

  return (
    <Form noValidate onSubmit={handleSubmit(({ email }) => onSubmit(email, { takeOver: offered && takeOver }))}>
      <Modal.Header closeButton>
        <Modal.Title id="add-user-title">Add User</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form.Group controlId="add-user-email">
          <Form.Label>Email address</Form.Label>
          <Form.Control
            type="email"
            inputMode="email"
            autoComplete="off"
            autoFocus
            isInvalid={error !== undefined}
            aria-invalid={error !== undefined}
            aria-describedby={error ? 'add-user-email-error add-user-email-help' : 'add-user-email-help'}
            {...register('email')}
          />
          <Form.Control.Feedback type="invalid" id="add-user-email-error">
            {error}
          </Form.Control.Feedback>
          <Form.Text id="add-user-email-help">
            They set their password with "Forgot Password" on the login page.
          </Form.Text>
        </Form.Group>
        {offered && (
          <Alert variant="warning" className="mt-3 mb-0 py-2">
            <p className="mb-2" id="add-user-take-over-hint">
              {TAKE_OVER_HINT}
            </p>
            <Form.Check
              id="add-user-take-over"
              type="checkbox"
              label={takeOverLabel(takeOverOffer)}
              checked={takeOver}
              aria-describedby="add-user-take-over-hint"
              onChange={(event) => setTakeOver(event.target.checked)}
            />
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary">
          Submit
        </Button>
      </Modal.Footer>
    </Form>
  );
}

/**
 * The spec's add-user modal; the form lives inside it so each opening starts empty and untouched. After the
 * server refused an address because a sign-in account the portal did not make holds it, the same address
 * offers one more step: a box to tick that confirms taking that account over (the call then says so).
 */
export function AddUserModal({
  show,
  onCancel,
  onSubmit,
  takeOverOffer = null,
}: {
  show: boolean;
  onCancel: () => void;
  onSubmit: AddUserSubmit;
  takeOverOffer?: string | null;
}) {
  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby="add-user-title">
      <AddUserForm onCancel={onCancel} onSubmit={onSubmit} takeOverOffer={takeOverOffer} />
    </Modal>
  );
}
