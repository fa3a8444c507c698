import type { InvoiceWarningKind } from '@portal/contract';
import { maskedAccount } from './e-invoice/iban.ts';
import { accountSetOf, normalAmount, paymentAccountsOf, type StoredInvoiceFacts } from './e-invoice/stored-facts.ts';
import { sameAccount, sameAccounts } from './e-invoice/visible-accounts.ts';
import type { VisibleAccounts } from './e-invoice/visible-text.ts';

/** What the guard reads of a version: stored ones from the history, the new one from ingestion. */
export interface GuardedVersion {
  format: 'pdf' | 'facturx' | 'cii' | 'ubl';
  facts: StoredInvoiceFacts | null;
  /**
   * The accounts its pages show, or why they could not be read; null for XML only and for versions stored
   * before the pages of every PDF were read.
   */
  visibleAccounts?: VisibleAccounts | null;
}

/** How a `bank-details` warning about the accounts a person sees (not the XML's) begins its detail. */
export const SHOWN_ACCOUNTS_DETAIL = 'accounts shown';

/**
 * The accounts a person paying from this version sees: those its pages show, or, for XML only, the XML's
 * (its rendering prints them). Null when nobody can say (pages unread, stored before pages were read).
 */
export function shownAccountsOf(version: GuardedVersion): string[] | null {
  const visible = version.visibleAccounts;
  if (visible && !('unreadable' in visible)) return visible.accounts ?? visible.ibans;
  if ((version.format === 'cii' || version.format === 'ubl') && version.facts) return accountSetOf(version.facts);
  return null;
}

/** The version a new one's shown accounts are compared with: the latest that showed any. */
const lastShowing = (history: GuardedVersion[]) =>
  history.map(shownAccountsOf).find((accounts): accounts is string[] => accounts !== null && accounts.length > 0);

/** A warning a new version raises; it stays on the invoice until a second person acknowledges it. */
export interface RaisedWarning {
  kind: InvoiceWarningKind;
  /** For people and the audit log: accounts shortened to their last four characters. */
  detail: string;
}

const NONE = 'none';

const accountsText = (accounts: string[]) => (accounts.length === 0 ? NONE : accounts.map(maskedAccount).join(', '));
const amountText = (facts: StoredInvoiceFacts) =>
  facts.amountDue === null ? NONE : `${facts.amountDue} ${facts.currency ?? ''}`.trim();
const amountKey = (facts: StoredInvoiceFacts) =>
  facts.amountDue === null ? null : `${normalAmount(facts.amountDue)} ${facts.currency ?? ''}`;

/** The version a new one's accounts are compared with: the latest that named any (`earlier` newest first). */
const lastWithAccounts = (earlier: StoredInvoiceFacts[]) => earlier.find((version) => accountSetOf(version).length > 0);
/** The version a new one's amount is compared with: the latest that had one. */
const lastWithAmount = (earlier: StoredInvoiceFacts[]) => earlier.find((version) => version.amountDue !== null);

/** A version's payment accounts and amount, whole, as a warning's reader compares them. */
export interface GuardedTerms {
  accounts: string[];
  amount: string | null;
  currency: string | null;
}

/**
 * What a stored `bank-details` or `amount` warning compared, whole (its detail masks the accounts): the terms
 * the guard read from the earlier versions (`history`, newest first) and those of the version that raised it.
 */
export function changeOf(
  history: (StoredInvoiceFacts | null)[],
  raisedBy: StoredInvoiceFacts | null,
): { before: GuardedTerms; after: GuardedTerms } {
  const earlier = history.filter((facts) => facts !== null);
  const accounts = lastWithAccounts(earlier);
  const amount = lastWithAmount(earlier);
  return {
    before: {
      accounts: accounts ? paymentAccountsOf(accounts) : [],
      amount: amount?.amountDue ?? null,
      currency: amount?.currency ?? null,
    },
    after: {
      accounts: raisedBy ? paymentAccountsOf(raisedBy) : [],
      amount: raisedBy?.amountDue ?? null,
      currency: raisedBy?.currency ?? null,
    },
  };
}

/**
 * The warnings `next` raises against `history` (the earlier versions, newest first). Each term is compared
 * with the last value it ever had, however many versions ago, so no version in between resets the guard:
 *
 * - payment accounts (BT-84 of every payment means), as a set: another set, or none where there were some;
 * - amount due (BT-115) with its currency, as a decimal: another amount, or none where there was one;
 * - a plain PDF replacing an e-invoice: the terms above can no longer be checked at all;
 * - a hybrid whose pages show an IBAN its XML does not name, or whose pages could not be read.
 *
 * A term seen for the first time (a first version, or a profile that now carries it) is no change.
 */
export function warningsFor(history: GuardedVersion[], next: GuardedVersion): RaisedWarning[] {
  const warnings: RaisedWarning[] = [];
  const earlier = history.flatMap((version) => (version.facts ? [version.facts] : []));
  const { facts } = next;
  const visible = next.visibleAccounts ?? null;

  if (!facts) {
    const previous = history[0];
    if (previous?.facts) {
      warnings.push({ kind: 'e-invoice-removed', detail: `${previous.format} -> ${next.format}` });
    }
  }

  const lastAccounts = facts ? lastWithAccounts(earlier) : undefined;
  if (facts && lastAccounts && accountSetOf(lastAccounts).join(' ') !== accountSetOf(facts).join(' ')) {
    const [before, after] = [paymentAccountsOf(lastAccounts), paymentAccountsOf(facts)];
    const label = before.length > 1 || after.length > 1 ? 'payment accounts' : 'payment account';
    warnings.push({ kind: 'bank-details', detail: `${label} ${accountsText(before)} -> ${accountsText(after)}` });
  }

  const lastAmount = facts ? lastWithAmount(earlier) : undefined;
  if (facts && lastAmount && amountKey(lastAmount) !== amountKey(facts)) {
    warnings.push({ kind: 'amount', detail: `amount due ${amountText(lastAmount)} -> ${amountText(facts)}` });
  }

  // What a person sees, held against what a person saw: where no XML was there to compare (plain PDF to
  // plain PDF, a plain PDF before an e-invoice, or the other way round), the pages are what is compared.
  const shownBefore = lastAccounts ? undefined : lastShowing(history);
  const shownNow = shownAccountsOf(next);
  // A plain PDF that shows no account where an e-invoice was is already `e-invoice-removed`.
  const removed = warnings.some((warning) => warning.kind === 'e-invoice-removed');
  if (shownBefore && shownNow && !(removed && shownNow.length === 0) && !sameAccounts(shownBefore, shownNow)) {
    warnings.push({
      kind: 'bank-details',
      detail: `${SHOWN_ACCOUNTS_DETAIL} ${accountsText(shownBefore)} -> ${accountsText(shownNow)}`,
    });
  }

  if (visible && 'unreadable' in visible) {
    // A hybrid's page is always held against its XML; a plain PDF's only when an earlier version showed accounts.
    if (facts || lastShowing(history)) {
      warnings.push({
        kind: 'visible-text-unread',
        detail: `the PDF's text could not be read: ${visible.unreadable}`,
      });
    }
  } else if (visible && facts) {
    const inXml = accountSetOf(facts);
    const shownOnly = (visible.accounts ?? visible.ibans).filter(
      (account) => !inXml.some((known) => sameAccount(known, account)),
    );
    if (shownOnly.length > 0) {
      warnings.push({
        kind: 'visible-account',
        detail: `shown on the PDF, not in its XML: ${accountsText(shownOnly)}`,
      });
    }
  }
  return warnings;
}

/**
 * What a stored `bank-details` warning about shown accounts compared, whole: the accounts the last earlier
 * version showed (`history`, newest first) and those of the version that raised it. No amounts: the pages'
 * amounts are not read.
 */
export function shownChangeOf(
  history: GuardedVersion[],
  raisedBy: GuardedVersion | null,
): { before: GuardedTerms; after: GuardedTerms } {
  const terms = (accounts: string[]): GuardedTerms => ({ accounts, amount: null, currency: null });
  return {
    before: terms(lastShowing(history) ?? []),
    after: terms((raisedBy && shownAccountsOf(raisedBy)) ?? []),
  };
}

/** Which warnings the older two marks (`bankDetailsChangedAt`, `amountChangedAt`) stand for. */
export const BANK_DETAILS_KINDS: readonly InvoiceWarningKind[] = [
  'bank-details',
  'visible-account',
  'e-invoice-removed',
];
export const AMOUNT_KINDS: readonly InvoiceWarningKind[] = ['amount', 'e-invoice-removed'];
