import type { InvoiceGuardedTerms, InvoiceWarning, InvoiceWarningKind } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Alert } from '@/components/Alert';
import { useAccount } from '@/lib/account-query';
import { ApiError, STEP_UP_REQUIRED, useApiClient } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/auth';
import { acknowledgeInvoiceWarning } from '../api/get-invoice-facts';
import { britishDay, formatMoney, groupedAccount } from './format';

/** What each warning says: the headline (with the day it was raised) and what to do about it. */
const MESSAGES: Record<InvoiceWarningKind, { headline: (day: string) => string; advice?: string }> = {
  'bank-details': {
    headline: (day) => `Bank details changed on ${day}.`,
    advice: 'Check the account with the seller before paying.',
  },
  amount: {
    headline: (day) => `Amount changed on ${day}.`,
    advice: 'Check the new amount with the seller before paying.',
  },
  'e-invoice-removed': {
    headline: (day) => `Replaced by a plain PDF on ${day}.`,
    advice: 'Its bank details and amount can no longer be checked against the e-invoice data.',
  },
  'visible-account': {
    headline: (day) => `The PDF shows an account its e-invoice data does not have (${day}).`,
    advice: 'Check the account with the seller before paying.',
  },
  'visible-text-unread': {
    headline: (day) => `The PDF's text could not be checked for its bank details (${day}).`,
  },
};

export const ACKNOWLEDGE_FAILED_MESSAGE = 'The warning could not be acknowledged. Please try again.';
export const STEP_UP_HINT = 'Confirm with your passkey on the Admin Page, then acknowledge it here.';

/**
 * The change guard's warnings that no second person has acknowledged yet: they stay, whatever later versions
 * of the invoice say. An administrator sees an Acknowledge button on each; the server refuses the one who
 * uploaded the version that raised it.
 */
export function InvoiceWarnings({ parcelCode, warnings }: { parcelCode: string; warnings: InvoiceWarning[] }) {
  const { email } = useCurrentUser();
  const isAdmin = useAccount(email).data?.admin === true;
  return warnings.map((warning) => (
    <Alert key={warning.id} variant="warning" className="py-2 px-3 small mb-2">
      <WarningText warning={warning} />
      {isAdmin && <Acknowledge parcelCode={parcelCode} warningId={warning.id} />}
    </Alert>
  ));
}

/**
 * A changed account is how invoice fraud is done (a seller's mailbox taken over, a new account slipped in):
 * the check has to go through a channel the fraudster does not hold.
 */
export const CONFIRM_BY_PHONE =
  'Before paying, call the seller on a phone number you already know (not one from this invoice or an e-mail) and confirm the new account.';

const NONE = 'none';
const accountsOf = (terms: InvoiceGuardedTerms) =>
  terms.accounts.length === 0 ? NONE : terms.accounts.map((account) => groupedAccount(account) ?? account).join(', ');
const amountOf = (terms: InvoiceGuardedTerms) => formatMoney(terms.amount, terms.currency) ?? NONE;

/** The old and the new value side by side, whole, so the reader can compare them with what they know. */
function Change({ label, before, after }: { label: string; before: string; after: string }) {
  return (
    <div className="warning-change">
      <dt>{label}</dt>
      <dd>
        {before === after ? (
          <>
            <span className="font-monospace">{after}</span> (unchanged)
          </>
        ) : (
          <>
            <span className="d-block">
              Was <span className="font-monospace">{before}</span>
            </span>
            <span className="d-block">
              Now <span className="font-monospace">{after}</span>
            </span>
          </>
        )}
      </dd>
    </div>
  );
}

function WarningText({ warning }: { warning: InvoiceWarning }) {
  const message = MESSAGES[warning.kind];
  const { change } = warning;
  const headline = <strong>{message.headline(britishDay(warning.raisedAt) ?? warning.raisedAt)}</strong>;
  if (!change) {
    return (
      <>
        {headline}
        {message.advice && <> {message.advice}</>}
        <span className="d-block text-body-secondary">{warning.detail.replaceAll(' -> ', ' \u2192 ')}</span>
      </>
    );
  }
  return (
    <>
      {headline}
      <dl className="warning-changes my-1">
        <Change label="Account" before={accountsOf(change.before)} after={accountsOf(change.after)} />
        <Change label="Amount" before={amountOf(change.before)} after={amountOf(change.after)} />
      </dl>
      <span className="d-block">{warning.kind === 'bank-details' ? CONFIRM_BY_PHONE : message.advice}</span>
    </>
  );
}

function Acknowledge({ parcelCode, warningId }: { parcelCode: string; warningId: number }) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const acknowledge = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await acknowledgeInvoiceWarning(api, parcelCode, warningId);
      await queryClient.invalidateQueries({ queryKey: ['invoice-facts'] });
    } catch (error) {
      const refusal = error instanceof ApiError && error.status < 500 ? error.serverMessage : undefined;
      const hint = error instanceof ApiError && error.code === STEP_UP_REQUIRED ? ` ${STEP_UP_HINT}` : '';
      setFailure(`${refusal ?? ACKNOWLEDGE_FAILED_MESSAGE}${hint}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-2">
      <Button variant="outline-dark" size="sm" onClick={() => void acknowledge()} disabled={busy}>
        Acknowledge
      </Button>
      {failure && (
        <p className="text-danger mt-2 mb-0" role="alert">
          {failure}
        </p>
      )}
    </div>
  );
}
