import type { InvoiceFacts, InvoiceWarning } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { amountChangeOf } from './warning-change';

const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const accounts = { 'user@example.com': { uid: 'uid-user', password: 'user-pass' } };
const terms = (accountList: string[], amount: string, currency = 'EUR') => ({
  accounts: accountList,
  amount,
  currency,
});

const facts: InvoiceFacts = {
  parcelCode: 'EINV-1',
  format: 'facturx',
  syntax: 'cii',
  profile: null,
  profileName: null,
  invoiceNumber: '471102',
  typeCode: '380',
  issueDate: '2024-11-05',
  dueDate: null,
  currency: 'EUR',
  sellerName: 'Lieferant GmbH',
  sellerVatId: null,
  buyerName: 'Kunden AG',
  buyerReference: null,
  totalNet: null,
  totalTax: null,
  totalGross: '1308.40',
  amountDue: '1308.40',
  iban: 'GB33BUKB20201555555555',
  paymentAccounts: ['GB33BUKB20201555555555'],
  lineCount: 1,
  validation: null,
  uploadedAt: '2025-02-01T10:00:00.000Z',
  hasXml: true,
  pdfIsRendering: false,
  bankDetailsChangedAt: null,
  amountChangedAt: null,
  warnings: [],
};

const amountWarning: InvoiceWarning = {
  id: 8,
  kind: 'amount',
  raisedAt: '2025-03-04T10:00:00.000Z',
  detail: 'amount due 130.84 EUR -> 1308.40 EUR',
  change: { before: terms(['GB33BUKB20201555555555'], '130.84'), after: terms(['GB33BUKB20201555555555'], '1308.40') },
};

function serve(warnings: InvoiceWarning[], account: { admin?: boolean } = {}) {
  server.use(
    accountLookup({ 'user@example.com': account }),
    http.get(`${API}/invoice`, () => new HttpResponse(PDF, { headers: { 'content-type': 'application/pdf' } })),
    http.get(`${API}/invoices/:parcelCode`, () => HttpResponse.json({ ...facts, warnings })),
  );
}

const open = () =>
  renderApp('/invoice?parcelCode=EINV-1', { auth: createFakeAuthClient({ accounts, signedInAs: 'user@example.com' }) });

beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:test/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});

describe('the waiting warnings, as a person reads them', () => {
  it('gives each kind of warning its own badge, not "bank changed" for all', async () => {
    serve([
      amountWarning,
      { id: 9, kind: 'e-invoice-removed', raisedAt: '2025-03-05T10:00:00.000Z', detail: 'facturx -> pdf' },
    ]);
    open();
    const block = await screen.findByRole('region', { name: 'Check before paying' });
    const badges = within(block).getByRole('list', { name: 'Kinds of change' });
    expect(
      within(badges)
        .getAllByRole('listitem')
        .map((badge) => badge.textContent),
    ).toEqual(['Amount changed', 'E-invoice replaced by a PDF']);
    expect(block).not.toHaveTextContent('Bank details changed');
  });

  it('states the size of an amount change and stresses a tenfold one', async () => {
    serve([amountWarning]);
    open();
    const block = await screen.findByRole('region', { name: 'Check before paying' });
    const stressed = within(block).getByText(/^Up €\s?1,177\.56: 10 times the earlier amount\.$/);
    expect(stressed.tagName).toBe('STRONG');
    expect(block).toHaveTextContent('Check the new amount with the seller before paying.');
  });

  it('prints accounts in groups of four that a line never breaks', async () => {
    serve([
      {
        id: 7,
        kind: 'bank-details',
        raisedAt: '2025-02-01T10:00:00.000Z',
        detail: 'payment account …2051 -> …5555',
        change: {
          before: terms(['DE02120300000000202051'], '1308.40'),
          after: terms(['GB33BUKB20201555555555'], '1308.40'),
        },
      },
    ]);
    open();
    const block = await screen.findByRole('region', { name: 'Check before paying' });
    const groups = within(block).getAllByText(/^GB33$|^BUKB$|^55$/);
    expect(groups).toHaveLength(3);
    for (const group of groups) expect(group).toHaveClass('text-nowrap');
    expect(block).toHaveTextContent(/Amount\s*€\s?1,308\.40 \(unchanged\)/);
  });

  it('puts the invoice first, with the warning summarised above it and the details after it', async () => {
    serve([amountWarning]);
    open();
    const summary = await screen.findByRole('note', { name: 'Check before paying' });
    const frame = await screen.findByTitle('EINV-1');
    const block = screen.getByRole('region', { name: 'Check before paying' });
    expect(summary).toHaveTextContent('Amount changed');
    expect(within(summary).getByRole('link', { name: 'Read what changed' })).toHaveAttribute('href', '#invoice-check');
    expect(summary.compareDocumentPosition(frame) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(frame.compareDocumentPosition(block) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("shows a refused Acknowledge in the emphasis red, which passes contrast on the block's tint", async () => {
    serve([amountWarning], { admin: true });
    const refusal = 'You uploaded the version that raised this warning: another administrator must acknowledge it.';
    server.use(
      http.post(`${API}/invoices/:parcelCode/warnings/:id/acknowledge`, () =>
        HttpResponse.json({ message: refusal, code: 'forbidden' }, { status: 403 }),
      ),
    );
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Acknowledge' }));
    const failure = await screen.findByText(refusal);
    expect(failure).toHaveClass('text-danger-emphasis');
    expect(failure).not.toHaveClass('text-danger');
  });
});

describe('amountChangeOf', () => {
  it('subtracts decimal strings exactly and calls doubling or halving large', () => {
    expect(amountChangeOf(terms([], '0.10'), terms([], '0.3'))).toEqual({ difference: '0.20', ratio: 3, large: true });
    expect(amountChangeOf(terms([], '100.00'), terms([], '110.00'))).toMatchObject({
      difference: '10.00',
      large: false,
    });
    expect(amountChangeOf(terms([], '100.00'), terms([], '40.00'))).toMatchObject({
      difference: '-60.00',
      large: true,
    });
    expect(amountChangeOf(terms([], '1.00', 'EUR'), terms([], '1.00', 'NOK'))).toBeNull();
  });
});
