import type { StepUpStatus } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { ErrorModal } from '@/components/ErrorModal';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { useQueryFailure } from '@/hooks/use-query-failure';
import { ApiError, useApiClient } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { confirmWithPasskey, setUpPasskey, STEP_UP_STATUS_KEY, useStepUpStatus } from '@/lib/passkeys';
import {
  confirmationLength,
  ENROLLMENT_CODE_LABEL,
  MISSING_CODE_MESSAGE,
  PASSKEY_SETUP_TITLE,
  passkeySetupHow,
  PASSWORD_AGAIN_HINT,
  STEP_UP_TITLE,
  type StepUpTexts,
} from './step-up-texts';
import { usePasskeyCeremony } from './use-passkey-ceremony';

const WRONG_PASSWORD_MESSAGE = 'That password is not right. Please try again.';
const MISSING_PASSWORD_MESSAGE = 'Please enter your password.';

/** The server's sentence when it gave one (a session that ended, a refusal), else what went wrong. */
const statusFailureMessage = (error: unknown) =>
  error instanceof ApiError ? (error.serverMessage ?? error.statusText) || error.message : String(error);

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

interface CardProps {
  status: StepUpStatus;
  texts: StepUpTexts;
  onDone: () => Promise<void>;
}

/**
 * First visit: explains the passkey and makes one with the one-time enrollment code the person was given
 * (asking for the password again too if it is not recent): a password alone never sets up a passkey.
 */
function PasskeySetupCard({ status, texts, onDone }: CardProps) {
  const api = useApiClient();
  const { client } = useAuth();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const { error, setError, working, run } = usePasskeyCeremony();
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
    await run(async () => {
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
    });
  };

  return (
    <section className="card shadow-sm step-up-card" aria-labelledby="passkey-setup-title">
      <div className="card-body p-4">
        <h2 id="passkey-setup-title" className="h5">
          {PASSKEY_SETUP_TITLE}
        </h2>
        <p>{texts.setUpWhy}</p>
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
            <Form.Text id="passkey-setup-code-hint">{texts.codeHint}</Form.Text>
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
function PasskeyConfirmCard({ status, texts, onDone }: CardProps) {
  const api = useApiClient();
  const { error, working, run } = usePasskeyCeremony();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    await run(async () => {
      await confirmWithPasskey(api);
      await onDone();
    });
  };

  return (
    <section className="card shadow-sm step-up-card" aria-labelledby="step-up-title">
      <div className="card-body p-4">
        <h2 id="step-up-title" className="h5">
          {STEP_UP_TITLE}
        </h2>
        <p>{texts.confirmHow(confirmationLength(status.maxAgeSeconds))}</p>
        <form onSubmit={(event) => void onSubmit(event)}>
          <CeremonyButton working={working}>Use passkey</CeremonyButton>
        </form>
        <CeremonyError message={error} />
        <p className="small admin-note mt-3 mb-0">{texts.lostPasskey}</p>
      </div>
    </section>
  );
}

/**
 * A page whose calls need a passkey (the admin page, the Invoices page) opens once this sign-in has
 * confirmed with one: set one up on the first visit, use it on every visit after. The server refuses the
 * page's calls without it anyway; this says so up front, in the page's own words (`texts`).
 */
export function StepUpGate({ texts, children }: { texts: StepUpTexts; children: ReactNode }) {
  const queryClient = useQueryClient();
  const status = useStepUpStatus();
  const failure = useQueryFailure(status.error, statusFailureMessage);
  const onDone = () => queryClient.invalidateQueries({ queryKey: STEP_UP_STATUS_KEY });
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
    <PasskeySetupCard status={status.data} texts={texts} onDone={onDone} />
  ) : (
    <PasskeyConfirmCard status={status.data} texts={texts} onDone={onDone} />
  );
}
