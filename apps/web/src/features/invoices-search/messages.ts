import { MAX_ZIP_INVOICES } from '@portal/contract';
import type { StepUpTexts } from '@/components/step-up/step-up-texts';

const count = new Intl.NumberFormat('en-GB');

export const NO_FINANCE_MESSAGE =
  'The Invoices page is for people with the finance role. Please ask an administrator if you need it.';

/** The Invoices page's words on the passkey cards: every invoice is behind it, as the admin page is. */
export const FINANCE_STEP_UP_TEXTS: StepUpTexts = {
  setUpWhy:
    'This page opens every invoice, so you confirm who you are with a passkey as well as your password: the fingerprint, face or screen lock of this device, or a security key.',
  codeHint:
    'The one-time code from the administrator who gave you the finance role or reset your passkeys (XXXX-XXXX-XXXX-XXXX). No code? Ask an administrator for one.',
  confirmHow: (length) =>
    `Use your passkey to open the invoices. They stay open for ${length} at a time; then the portal asks again.`,
  lostPasskey: 'Lost your passkey? An administrator can reset it from the user list.',
};
export const totalText = (total: number, atLeast: boolean) =>
  atLeast
    ? `More than ${count.format(total)} invoices: narrow the search to see them all`
    : total === 1
      ? '1 invoice'
      : `${count.format(total)} invoices`;
export const selectedText = (selected: number) =>
  `${count.format(selected)} selected${selected >= MAX_ZIP_INVOICES ? ` (at most ${MAX_ZIP_INVOICES})` : ''}`;
export const allResultsButton = (total: number, atLeast: boolean) =>
  atLeast || total > MAX_ZIP_INVOICES
    ? `Download the first ${MAX_ZIP_INVOICES} results (ZIP)`
    : `Download all ${count.format(total)} results (ZIP)`;
export const zipProgressText = (received: number, expected: number | null, invoices: number | null) => {
  const mb = (bytes: number) => (bytes / 1_000_000).toFixed(1);
  const of = expected ? ` of about ${mb(expected)} MB` : '';
  return `Downloading ${invoices === null ? 'the' : count.format(invoices)} invoices: ${mb(received)} MB${of}`;
};
export const zipDoneText = (invoices: number | null) =>
  `The ZIP with ${invoices === null ? 'the' : count.format(invoices)} invoices is in your downloads.`;
export const FORMAT_NAMES = { pdf: 'PDF', facturx: 'Factur-X / ZUGFeRD', cii: 'XML (CII)', ubl: 'XML (UBL)' } as const;
/** The same, short enough for the list's badge (the full name is its title). */
export const FORMAT_BADGES = { pdf: 'PDF', facturx: 'Factur-X', cii: 'CII', ubl: 'UBL' } as const;
export const SORT_NAMES = {
  '-received': 'Received, newest first',
  received: 'Received, oldest first',
  '-issued': 'Issued, newest first',
  issued: 'Issued, oldest first',
  '-amount': 'Amount, largest first, per currency',
  amount: 'Amount, smallest first, per currency',
} as const;
/** The phone's folded filters, named by how many are in use. */
export const filtersSummary = (filter: Record<string, string | undefined>) => {
  const used = Object.values(filter).filter(Boolean).length;
  return used === 0 ? 'Search and filters' : `Search and filters (${count.format(used)} in use)`;
};
/** The sums of the invoices on screen, per currency: never one sum across currencies. */
export const PAGE_TOTALS_LABEL = 'This page:';
/** Said above the results when they are sorted by amount: the server groups them by currency first. */
export const BY_CURRENCY_NOTE = 'Grouped by currency (A to Z), then by amount.';
/** Said in place of the whole search's totals when they could not be had (the list itself is shown). */
export const SUMS_FAILED = 'The totals of all results could not be worked out just now.';
/** The stored EN 16931 check, as the filter offers it and as the list's badge says it (its title says more). */
export const VALIDATION_FILTER_NAMES = {
  valid: 'Valid',
  warnings: 'Valid with warnings',
  invalid: 'Invalid',
} as const;
export const VALIDATION_BADGES = {
  valid: { text: 'Valid', tone: 'status-activated', title: 'Meets the EN 16931 business rules' },
  warnings: {
    text: 'Warnings',
    tone: 'status-invited',
    title: 'Meets the EN 16931 business rules, with warnings: open it to read them',
  },
  invalid: {
    text: 'Invalid',
    tone: 'status-failed',
    title: 'Breaks EN 16931 business rules: open it to read which before paying',
  },
} as const;
/** A plain PDF, or an e-invoice stored before the check or under a policy that keeps no report. */
export const NOT_CHECKED = { text: '—', label: 'Not checked' } as const;
export const allToBuyer = (buyer: string) => `All to ${buyer}`;
