import type { InvoiceSummary } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup, emptySearchSums } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';

const MONEY = 'money@example.com';
const invoice = (parcelCode: string, overrides: Partial<InvoiceSummary> = {}): InvoiceSummary => ({
  parcelCode,
  format: 'facturx',
  invoiceNumber: `INV-${parcelCode}`,
  issueDate: '2026-03-01',
  sellerName: 'Nordfracht AG',
  buyerName: 'Weber Bau GmbH',
  totalGross: '1190.00',
  currency: 'EUR',
  uploadedAt: '2026-03-02T10:00:00.000Z',
  hasXml: true,
  bankDetailsChanged: false,
  ...overrides,
});

function serve(items: InvoiceSummary[]) {
  server.use(
    accountLookup({ [MONEY]: { finance: true } }),
    emptySearchSums,
    http.get(`${API}/invoices`, () => HttpResponse.json({ items, total: items.length, totalIsAtLeast: false })),
    http.get(`${API}/me/step-up`, () =>
      HttpResponse.json({
        passkeys: 1,
        steppedUpUntil: '2099-01-01T00:00:00.000Z',
        maxAgeSeconds: 600,
        recentSignIn: true,
      }),
    ),
  );
}

const open = async () => {
  renderApp('/finance', { auth: createFakeAuthClient({ signedInAs: MONEY }) });
  const table = await screen.findByRole('table', { name: 'Invoices found' });
  await within(table).findByRole('link', { name: 'PC1' });
  return table;
};
// The test runner's locale writes the money: the currency's sign or code, not "1,190.00 EUR".
const euros = (amount: string) => new RegExp(`^€\\s?${amount}$|^${amount.replace(',', '.')}\\s?€$`);

describe('money on the Invoices page', () => {
  it("writes amounts with the invoice's currency in the reader's terms and totals the page per currency", async () => {
    serve([
      invoice('PC1'),
      invoice('PC2', { totalGross: '10.5' }),
      invoice('PC3', { totalGross: '1000', currency: 'NOK' }),
    ]);
    const table = await open();
    const row = within(table).getByRole('link', { name: 'PC1' }).closest('tr')!;
    expect(within(row).getByText(euros('1,190.00'))).toBeInTheDocument();
    expect(within(table).queryByText(/EUR/)).not.toBeInTheDocument();
    expect(within(table).getByText(/NOK\s?1,000\.00|1[.,\s]000[.,]00\s?kr/)).toBeInTheDocument();
    const totals = screen.getByText('This page:').parentElement!;
    expect(totals).toHaveTextContent(/This page: €\s?1,200\.50 \(2\) · (NOK\s?1,000\.00|.*kr) \(1\)/);
  });

  it('names a buyer shared by every row once, above the table, instead of a column that repeats it', async () => {
    serve([invoice('PC1'), invoice('PC2')]);
    const table = await open();
    expect(within(table).queryByRole('columnheader', { name: 'Buyer' })).not.toBeInTheDocument();
    expect(screen.getByText('All to Weber Bau GmbH')).toBeInTheDocument();
  });

  it('keeps the Buyer column when the buyers differ', async () => {
    serve([invoice('PC1'), invoice('PC2', { buyerName: 'Kunden AG' })]);
    const table = await open();
    expect(within(table).getByRole('columnheader', { name: 'Buyer' })).toBeInTheDocument();
    expect(screen.queryByText(/^All to /)).not.toBeInTheDocument();
  });
});

describe('columns that say something', () => {
  it('shows a Due column when an invoice names a due date, and a badge for an amount change of its own', async () => {
    serve([invoice('PC1', { dueDate: '2026-04-15', amountChanged: true }), invoice('PC2', { dueDate: null })]);
    const table = await open();
    expect(within(table).getByRole('columnheader', { name: 'Due' })).toBeInTheDocument();
    const row = within(table).getByRole('link', { name: 'PC1' }).closest('tr')!;
    expect(row).toHaveTextContent('15 Apr 2026');
    expect(within(row).getByText('Amount changed')).toHaveAttribute(
      'title',
      'Its amount due changed and nobody has checked yet',
    );
    expect(within(row).queryByText('Bank changed')).not.toBeInTheDocument();
  });

  it('leaves the Due column out when no invoice on the page names one', async () => {
    serve([invoice('PC1'), invoice('PC2', { buyerName: 'Kunden AG' })]);
    const table = await open();
    expect(within(table).queryByRole('columnheader', { name: 'Due' })).not.toBeInTheDocument();
  });
});
