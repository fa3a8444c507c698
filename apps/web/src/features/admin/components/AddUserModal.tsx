import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Alert } from '@/components/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { emailFormSchema, type EmailFormInput, type EmailFormValues } from '@/lib/email-field';
import { AddUserError, isForeignAccountRefusal, useAddUser } from '../api/add-user';
import type { ActionFeedback } from '../hooks/use-action-feedback';
import { addedNotice, statusTextOf, TAKE_OVER_HINT, takeOverLabel } from '../messages';

function AddUserForm({
  onCancel,
  onAdded,
  feedback,
}: {
  onCancel: () => void;
  onAdded: () => void;
  feedback: ActionFeedback;
}) {
  const addUser = useAddUser();
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors },
  } = useForm<EmailFormInput, unknown, EmailFormValues>({
    resolver: zodResolver(emailFormSchema),
    // The spec: a field's error shows only once it has been touched (or the form submitted).
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
  const error = errors.email?.message;
  // The address the server refused because a sign-in account the portal did not make holds it.
  const [takeOverOffer, setTakeOverOffer] = useState<string | null>(null);
  const [takeOver, setTakeOver] = useState(false);
  // Offered only for the very address that was refused: another address starts over without it.
  const typed = (useWatch({ control, name: 'email' }) ?? '').trim().toLowerCase();
  const offered = takeOverOffer !== null && typed === takeOverOffer;

  const submit = async ({ email }: EmailFormValues) => {
    try {
      await addUser.mutateAsync({ email, takeOver: offered && takeOver });
    } catch (failure) {
      // An address already on the list is a mistake in the field: said under it, the form stays as typed.
      if (failure instanceof AddUserError && failure.alreadyListed) {
        setError('email', { message: failure.message }, { shouldFocus: true });
        return;
      }
      // Anything else is the spec's error modal, over this one, which keeps the address to retry; an account
      // the portal did not make is then offered for take-over, for this address only.
      if (isForeignAccountRefusal(failure)) setTakeOverOffer(email);
      feedback.fail(failure instanceof AddUserError ? failure.message : statusTextOf(failure), failure);
      return;
    }
    onAdded();
    feedback.succeed({ text: addedNotice(email), show: email });
  };

  return (
    <Form noValidate onSubmit={handleSubmit(submit)}>
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
 * The spec's add-user modal: create, register, and close on the list's reload 1000 ms later. The form lives
 * inside it so each opening starts empty and untouched. After the server refused an address because a
 * sign-in account the portal did not make holds it, the same address offers one more step: a box to tick
 * that confirms taking that account over (the call then says so).
 */
export function AddUserModal({
  show,
  onClose,
  feedback,
}: {
  show: boolean;
  onClose: () => void;
  feedback: ActionFeedback;
}) {
  return (
    <Modal show={show} onHide={onClose} centered aria-labelledby="add-user-title">
      <AddUserForm onCancel={onClose} onAdded={onClose} feedback={feedback} />
    </Modal>
  );
}
