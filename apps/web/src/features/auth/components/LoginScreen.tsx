import { lazy, Suspense, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useAuth } from '@/lib/auth';
import { MISSING_CREDENTIALS_MESSAGE, signInErrorMessage } from '../messages';

// Loaded on demand: form validation code is not needed to sign in.
const ForgotPasswordModal = lazy(() => import('./ForgotPasswordModal'));

export function LoginScreen() {
  const { client } = useAuth();
  const [form, setForm] = useState({ email: '', pass: '' });
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.email.trim() || !form.pass) {
      setError(MISSING_CREDENTIALS_MESSAGE);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      await client.signIn(form.email.trim(), form.pass);
    } catch (signInError) {
      setError(signInErrorMessage(signInError));
      setSubmitting(false);
    }
  };

  return (
    <main className="container py-4 py-sm-5 login-container">
      <Card className="shadow-sm">
        <Card.Body className="p-4">
          <h1 className="h3 mb-4">Login</h1>
          {error && (
            <Alert variant="danger" role="alert">
              {error}
            </Alert>
          )}
          {/* noValidate: the fields keep `required`, and the spec's own message explains what is missing. */}
          <Form noValidate onSubmit={onSubmit}>
            <Form.Group className="mb-3" controlId="login-email">
              <Form.Label>Email address</Form.Label>
              <Form.Control
                type="email"
                required
                autoComplete="username"
                inputMode="email"
                value={form.email}
                onChange={(event) => setForm({ ...form, email: event.target.value })}
              />
            </Form.Group>
            <Form.Group className="mb-4" controlId="login-password">
              <Form.Label>Password</Form.Label>
              <Form.Control
                type="password"
                required
                autoComplete="current-password"
                value={form.pass}
                onChange={(event) => setForm({ ...form, pass: event.target.value })}
              />
            </Form.Group>
            <div className="d-flex justify-content-between align-items-center">
              <Button variant="link" className="px-0" onClick={() => setForgotOpen(true)}>
                Forgot Password
              </Button>
              <Button type="submit" variant="primary" disabled={submitting}>
                Submit
              </Button>
            </div>
          </Form>
        </Card.Body>
      </Card>
      {forgotOpen && (
        <Suspense fallback={null}>
          <ForgotPasswordModal initialEmail={form.email.trim()} onClose={() => setForgotOpen(false)} />
        </Suspense>
      )}
    </main>
  );
}
