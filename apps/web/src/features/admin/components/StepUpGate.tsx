import type { StepUpStatus } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { ErrorModal } from '@/components/ErrorModal';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { useQueryFailure } from '@/hooks/use-query-failure';
import { useApiClient } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { ceremonyFailureMessage, confirmWithPasskey, setUpPasskey, useStepUpStatus } from '../api/passkeys';
import { adminKeys } from '../api/query-keys';
import {
  ENROLLMENT_CODE_HINT,
  ENROLLMENT_CODE_LABEL,
  LOST_PASSKEY_HINT,
  MISSING_CODE_MESSAGE,
  PASSKEY_SETUP_TITLE,
  PASSKEY_SETUP_WHY,
  passkeySetupHow,
  PASSWORD_AGAIN_HINT,
  serverMessageOf,
  STEP_UP_TITLE,
  stepUpHow,
} from '../messages';

const WRONG_PASSWORD_MESSAGE = 'That password is not right. Please try again.';
const MISSING_PASSWORD_MESSAGE = 'Please enter your password.';

/** A button that shows it is waiting for the browser's passkey dialog. */
function CeremonyButton({ working, children }: { working: boolean; children: ReactNode }) {
  return (
    <Button type="submit" variant="primary" disabled={working} className="d-inline-flex align-items-center gap-2">
      {working && <Spinner animation="border" size="sm" aria-hidden="true" />}
      {children}
    </Button>
  );
}

function CeremonyError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="alert alert-danger mt-3 mb-0" role="alert">
      {message}
    </div>
  );
}

/**
 * First visit: explains the passkey and makes one with the one-time enrollment code the admin was given
 * (asking for the password again too if it is not recent): a password alone never sets up a passkey.
 */
function PasskeySetupCard({ status, onDone }: { status: StepUpStatus; onDone: () => Promise<void> }) {
  const api = useApiClient();
  const { client } = useAuth();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const needsPassword = !status.recentSignIn;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(MISSING_CODE_MESSAGE);
      return;
    }
    if (needsPassword && !password) {
      setError(MISSING_PASSWORD_MESSAGE);
      return;
    }
    setWorking(true);
    setError(null);
    try {
      if (needsPassword) {
        try {
          await client.confirmPassword(password);
        } catch {
          setError(WRONG_PASSWORD_MESSAGE);
          return;
        }
      }
      await setUpPasskey(api, code.trim());
      await onDone();
    } catch (ceremonyError) {
      setError(ceremonyFailureMessage(ceremonyError));
    } finally {
      setWorking(false);
    }
  };

  return (
    <section className="card shadow-sm step-up-card" aria-labelledby="passkey-setup-title">
      <div className="card-body p-4">
        <h2 id="passkey-setup-title" className="h5">
          {PASSKEY_SETUP_TITLE}
        </h2>
        <p>{PASSKEY_SETUP_WHY}</p>
        <p>{passkeySetupHow(status.maxAgeSeconds)}</p>
        <Form noValidate onSubmit={(event) => void onSubmit(event)}>
          <Form.Group controlId="passkey-setup-code" className="mb-3">
            <Form.Label>{ENROLLMENT_CODE_LABEL}</Form.Label>
            <Form.Control
              type="text"
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              required
              value={code}
              aria-describedby="passkey-setup-code-hint"
              onChange={(event) => setCode(event.target.value)}
            />
            <Form.Text id="passkey-setup-code-hint">{ENROLLMENT_CODE_HINT}</Form.Text>
          </Form.Group>
          {needsPassword && (
            <Form.Group controlId="passkey-setup-password" className="mb-3">
              <Form.Label>Password</Form.Label>
              <Form.Control
                type="password"
                autoComplete="current-password"
                required
                value={password}
                aria-describedby="passkey-setup-password-hint"
                onChange={(event) => setPassword(event.target.value)}
              />
              <Form.Text id="passkey-setup-password-hint">{PASSWORD_AGAIN_HINT}</Form.Text>
            </Form.Group>
          )}
          <CeremonyButton working={working}>Set up a passkey</CeremonyButton>
        </Form>
        <CeremonyError message={error} />
      </div>
    </section>
  );
}

/** Every visit after: one tap on the passkey opens the page for this sign-in. */
function PasskeyConfirmCard({ status, onDone }: { status: StepUpStatus; onDone: () => Promise<void> }) {
  const api = useApiClient();
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setWorking(true);
    setError(null);
    try {
      await confirmWithPasskey(api);
      await onDone();
    } catch (ceremonyError) {
      setError(ceremonyFailureMessage(ceremonyError));
    } finally {
      setWorking(false);
    }
  };

  return (
    <section className="card shadow-sm step-up-card" aria-labelledby="step-up-title">
      <div className="card-body p-4">
        <h2 id="step-up-title" className="h5">
          {STEP_UP_TITLE}
        </h2>
        <p>{stepUpHow(status.maxAgeSeconds)}</p>
        <form onSubmit={(event) => void onSubmit(event)}>
          <CeremonyButton working={working}>Use passkey</CeremonyButton>
        </form>
        <CeremonyError message={error} />
        <p className="small admin-note mt-3 mb-0">{LOST_PASSKEY_HINT}</p>
      </div>
    </section>
  );
}

/**
 * The admin page opens once this sign-in has confirmed with a passkey: set one up on the first visit, use
 * it on every visit after. The server refuses admin calls without it anyway; this says so up front.
 */
export function StepUpGate({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const status = useStepUpStatus();
  const failure = useQueryFailure(status.error, serverMessageOf);
  const onDone = () => queryClient.invalidateQueries({ queryKey: adminKeys.stepUp });
  // Once open, the page stays open: a confirmation that runs out later is asked for by the prompt over the
  // refused call, not by swapping the screen for the card (which would drop the form or notice on it).
  const [opened, setOpened] = useState(false);
  const confirmed = status.data?.steppedUpUntil != null;
  if (confirmed && !opened) setOpened(true);

  if (status.isPending) return <LoadingOverlay show />;
  if (status.isError)
    return <ErrorModal message={failure.message} reference={failure.reference} onClose={failure.dismiss} />;
  if (confirmed || opened) return children;
  return status.data.passkeys === 0 ? (
    <PasskeySetupCard status={status.data} onDone={onDone} />
  ) : (
    <PasskeyConfirmCard status={status.data} onDone={onDone} />
  );
}
