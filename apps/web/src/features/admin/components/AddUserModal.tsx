import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { emailFormSchema, type EmailFormInput, type EmailFormValues } from '@/lib/email-field';
import { AddUserError, useAddUser } from '../api/add-user';
import type { ActionFeedback } from '../hooks/use-action-feedback';
import { addedNotice, statusTextOf } from '../messages';

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
    formState: { errors },
  } = useForm<EmailFormInput, unknown, EmailFormValues>({
    resolver: zodResolver(emailFormSchema),
    // The spec: a field's error shows only once it has been touched (or the form submitted).
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
  const error = errors.email?.message;

  const submit = async ({ email }: EmailFormValues) => {
    try {
      await addUser.mutateAsync(email);
    } catch (failure) {
      // An address already on the list is a mistake in the field: said under it, the form stays as typed.
      if (failure instanceof AddUserError && failure.alreadyListed) {
        setError('email', { message: failure.message }, { shouldFocus: true });
        return;
      }
      // Anything else is the spec's error modal, over this one, which keeps the address to retry.
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
 * inside it so each opening starts empty and untouched.
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
