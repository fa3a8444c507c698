import type { InvoiceGuardedTerms, InvoiceWarning, InvoiceWarningKind } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useAccount } from '@/lib/account-query';
import { ApiError, STEP_UP_REQUIRED, useApiClient } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/auth';
import { acknowledgeInvoiceWarning } from '../api/get-invoice-facts';
import { britishDay, formatMoney, groupedAccount } from './format';
import { amountChangeOf, combinedChange } from './warning-change';

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

/** Each kind's badge: what kind of check waits, so a new amount does not read as a new account. */
export const WARNING_BADGES: Record<InvoiceWarningKind, string> = {
  'bank-details': 'Bank details changed',
  amount: 'Amount changed',
  'e-invoice-removed': 'E-invoice replaced by a PDF',
  'visible-account': 'Account only on the PDF',
  'visible-text-unread': 'PDF text not checked',
};

export const CHECK_TITLE = 'Check before paying';
export const ACKNOWLEDGE_FAILED_MESSAGE = 'The warning could not be acknowledged. Please try again.';
export const STEP_UP_HINT = 'Confirm with your passkey on the Admin Page, then acknowledge it here.';

/**
 * A changed account is how invoice fraud is done (a seller's mailbox taken over, a new account slipped in):
 * the check has to go through a channel the fraudster does not hold.
 */
export const CONFIRM_BY_PHONE =
  'Before paying, call the seller on a phone number you already know (not one from this invoice or an e-mail) and confirm the new account.';

const NONE = 'none';
const byId = (warnings: readonly InvoiceWarning[]) => [...warnings].sort((a, b) => a.id - b.id);
const kindsOf = (warnings: readonly InvoiceWarning[]) => [...new Set(byId(warnings).map((warning) => warning.kind))];

/** The kinds waiting, one badge each. */
export function WarningBadges({ warnings }: { warnings: readonly InvoiceWarning[] }) {
  return (
    <ul className="status-badges warning-badges list-unstyled mb-0" aria-label="Kinds of change">
      {kindsOf(warnings).map((kind) => (
        <li key={kind} className="badge status-badge status-invited">
          {WARNING_BADGES[kind]}
        </li>
      ))}
    </ul>
  );
}

/**
 * An IBAN as it is printed, in groups of four that never break: a line may end only between groups, so the
 * reader compares it group by group with what they know.
 */
function Account({ account }: { account: string }) {
  const grouped = groupedAccount(account) ?? account;
  const groups = grouped.split(' ');
  return (
    <span className="font-monospace account-groups">
      {groups.map((group, index) => (
        // The space outside the unbreakable group: the one place a line may end.
        <Fragment key={index}>
          <span className="text-nowrap">{group}</span>
          {index < groups.length - 1 ? ' ' : ''}
        </Fragment>
      ))}
    </span>
  );
}

function Accounts({ terms }: { terms: InvoiceGuardedTerms }) {
  if (terms.accounts.length === 0) return <span className="font-monospace">{NONE}</span>;
  return terms.accounts.map((account, index) => (
    <span key={account}>
      <Account account={account} />
      {index < terms.accounts.length - 1 ? ', ' : ''}
    </span>
  ));
}

const amountOf = (terms: InvoiceGuardedTerms) => formatMoney(terms.amount, terms.currency) ?? NONE;

/** The size of an amount change, said; a large one stressed. */
function AmountDifference({ before, after }: { before: InvoiceGuardedTerms; after: InvoiceGuardedTerms }) {
  if (before.currency !== after.currency && before.amount !== null && after.amount !== null) {
    return (
      <strong className="d-block amount-jump">
        Now in {after.currency ?? 'no currency'}, was {before.currency ?? 'no currency'}.
      </strong>
    );
  }
  const change = amountChangeOf(before, after);
  if (!change) return null;
  const up = !change.difference.startsWith('-');
  const size = formatMoney(up ? change.difference : change.difference.slice(1), after.currency);
  const text = `${up ? 'Up' : 'Down'} ${size}`;
  if (!change.large) return <span className="d-block">{text}.</span>;
  const times =
    change.ratio === null
      ? 'from nothing'
      : change.ratio >= 2
        ? `${formatTimes(change.ratio)} times the earlier amount`
        : `${formatTimes(1 / change.ratio)} times less than the earlier amount`;
  return (
    <strong className="d-block amount-jump">
      {text}: {times}.
    </strong>
  );
}

const formatTimes = (ratio: number) =>
  new Intl.NumberFormat(undefined, { maximumFractionDigits: ratio >= 10 ? 0 : 1 }).format(ratio);

function ChangeRows({ warnings }: { warnings: readonly InvoiceWarning[] }) {
  const change = combinedChange(byId(warnings));
  if (!change) return null;
  const { before, after } = change;
  const sameAccounts = before.accounts.join() === after.accounts.join();
  const sameAmount = amountOf(before) === amountOf(after);
  return (
    <dl className="warning-changes my-2">
      <div className="warning-change">
        <dt>Account</dt>
        <dd>
          {sameAccounts ? (
            <>
              <Accounts terms={after} /> (unchanged)
            </>
          ) : (
            <>
              <span className="d-block">
                Was <Accounts terms={before} />
              </span>
              <span className="d-block">
                Now <Accounts terms={after} />
              </span>
            </>
          )}
        </dd>
      </div>
      <div className="warning-change">
        <dt>Amount</dt>
        <dd>
          {sameAmount ? (
            <>
              <span className="font-monospace">{amountOf(after)}</span> (unchanged)
            </>
          ) : (
            <>
              <span className="d-block">
                Was <span className="font-monospace">{amountOf(before)}</span>
              </span>
              <span className="d-block">
                Now <span className="font-monospace">{amountOf(after)}</span>
              </span>
              <AmountDifference before={before} after={after} />
            </>
          )}
        </dd>
      </div>
    </dl>
  );
}

/**
 * The change guard's warnings that no second person has acknowledged yet, as one block: the kinds as badges,
 * each warning's headline, the change once (old and new, whole), and what to do. They stay, whatever later
 * versions say. An administrator sees an Acknowledge button on each; the server refuses the one who uploaded
 * the version that raised it.
 */
export function InvoiceWarnings({ parcelCode, warnings }: { parcelCode: string; warnings: InvoiceWarning[] }) {
  const { email } = useCurrentUser();
  const isAdmin = useAccount(email).data?.admin === true;
  if (warnings.length === 0) return null;
  const ordered = byId(warnings);
  const kinds = kindsOf(ordered);
  const changed = ordered.some((warning) => warning.change);
  const advice = kinds.includes('bank-details')
    ? [CONFIRM_BY_PHONE]
    : [...new Set(kinds.flatMap((kind) => (MESSAGES[kind].advice ? [MESSAGES[kind].advice] : [])))];
  return (
    <section id="invoice-check" className="invoice-check small mb-2" aria-labelledby="invoice-check-title">
      <h3 id="invoice-check-title" className="h6 mb-1">
        {CHECK_TITLE}
      </h3>
      <WarningBadges warnings={ordered} />
      <ul className="list-unstyled mt-2 mb-0">
        {ordered.map((warning) => (
          <li key={warning.id} className="invoice-check-item">
            <span className="d-block fw-semibold">
              {MESSAGES[warning.kind].headline(britishDay(warning.raisedAt) ?? warning.raisedAt)}
            </span>
            {!warning.change && (
              <span className="d-block text-body-secondary">{warning.detail.replaceAll(' -> ', ' \u2192 ')}</span>
            )}
            {isAdmin && <Acknowledge parcelCode={parcelCode} warningId={warning.id} />}
          </li>
        ))}
      </ul>
      {changed && <ChangeRows warnings={ordered} />}
      {advice.map((line) => (
        <p key={line} className="mb-0 mt-1">
          {line}
        </p>
      ))}
    </section>
  );
}

/** The phone's one line above the invoice: what kind of check waits, and where the details are. */
export function InvoiceWarningsSummary({ warnings }: { warnings: readonly InvoiceWarning[] }) {
  return (
    <div className="invoice-check-summary small d-lg-none" role="note" aria-label={CHECK_TITLE}>
      <strong className="me-1">{CHECK_TITLE}:</strong>
      <WarningBadges warnings={warnings} />
      <a href="#invoice-check" className="d-inline-block mt-1">
        Read what changed
      </a>
    </div>
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
    <div className="mt-1 mb-2">
      <Button variant="outline-dark" size="sm" onClick={() => void acknowledge()} disabled={busy}>
        Acknowledge
      </Button>
      {/* The emphasis red: plain danger red on the block's warm background measured 4.08:1, under AA. */}
      {failure && (
        <p className="text-danger-emphasis fw-semibold mt-2 mb-0" role="alert">
          {failure}
        </p>
      )}
    </div>
  );
}
