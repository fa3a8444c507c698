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
  '-amount': 'Amount, largest first',
  amount: 'Amount, smallest first',
} as const;
/** The phone's folded filters, named by how many are in use. */
export const filtersSummary = (filter: Record<string, string | undefined>) => {
  const used = Object.values(filter).filter(Boolean).length;
  return used === 0 ? 'Search and filters' : `Search and filters (${count.format(used)} in use)`;
};
/** The sums of the invoices on screen, per currency: never one sum across currencies. */
export const PAGE_TOTALS_LABEL = 'This page:';
export const allToBuyer = (buyer: string) => `All to ${buyer}`;
