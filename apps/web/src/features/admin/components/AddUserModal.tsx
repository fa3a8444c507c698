import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { emailFormSchema, type EmailFormInput, type EmailFormValues } from '@/lib/email-field';

function AddUserForm({ onCancel, onSubmit }: { onCancel: () => void; onSubmit: (email: string) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<EmailFormInput, unknown, EmailFormValues>({
    resolver: zodResolver(emailFormSchema),
    // The spec: a field's error shows only once it has been touched (or the form submitted).
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
  const error = errors.email?.message;

  return (
    <Form noValidate onSubmit={handleSubmit(({ email }) => onSubmit(email))}>
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

/** The spec's add-user modal; the form lives inside it so each opening starts empty and untouched. */
export function AddUserModal({
  show,
  onCancel,
  onSubmit,
}: {
  show: boolean;
  onCancel: () => void;
  onSubmit: (email: string) => void;
}) {
  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby="add-user-title">
      <AddUserForm onCancel={onCancel} onSubmit={onSubmit} />
    </Modal>
  );
}
