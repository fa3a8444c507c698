import type { InvoiceSummary } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup, emptySearchSums } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';

const MONEY = 'money@example.com';
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const invoice = (parcelCode: string): InvoiceSummary => ({
  parcelCode,
  format: 'pdf',
  invoiceNumber: null,
  issueDate: null,
  sellerName: 'Nordfracht AG',
  buyerName: null,
  totalGross: null,
  currency: null,
  uploadedAt: '2026-03-02T10:00:00.000Z',
  hasXml: false,
  bankDetailsChanged: false,
});
const items = Array.from({ length: 60 }, (_, index) => invoice(`PC${String(index + 1).padStart(2, '0')}`));

beforeEach(() => {
  sessionStorage.clear();
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:test/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  server.use(
    accountLookup({ [MONEY]: { finance: true } }),
    emptySearchSums,
    http.get(`${API}/invoices`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      const offset = Number(query.get('offset'));
      const limit = Number(query.get('limit'));
      return HttpResponse.json({
        items: items.slice(offset, offset + limit),
        total: items.length,
        totalIsAtLeast: false,
      });
    }),
    http.get(`${API}/me/step-up`, () =>
      HttpResponse.json({
        passkeys: 1,
        steppedUpUntil: '2099-01-01T00:00:00.000Z',
        maxAgeSeconds: 600,
        recentSignIn: true,
      }),
    ),
    http.get(`${API}/invoice`, () => new HttpResponse(PDF, { headers: { 'content-type': 'application/pdf' } })),
    http.get(`${API}/invoices/:parcelCode`, () => HttpResponse.json({ message: 'x' }, { status: 503 })),
  );
});

describe('from the results to an invoice and back', () => {
  it('opens the invoice at its top and goes back with search, order, page and selection kept', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const { user } = renderApp('/finance?seller=nord&sort=received&page=2&size=25', {
      auth: createFakeAuthClient({ signedInAs: MONEY }),
    });
    const table = await screen.findByRole('table', { name: 'Invoices found' });
    await user.click(await within(table).findByRole('checkbox', { name: 'Select PC27' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    scrollTo.mockClear();

    await user.click(within(table).getByRole('link', { name: 'PC28' }));
    await screen.findByTitle('PC28');
    expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
    const back = screen.getByRole('link', { name: 'Back to results' });
    expect(back).toHaveAttribute('href', '/finance?seller=nord&sort=received&page=2&size=25');

    await user.click(back);
    const again = await screen.findByRole('table', { name: 'Invoices found' });
    await within(again).findByRole('link', { name: 'PC28' });
    expect(within(again).getByRole('checkbox', { name: 'Select PC27' })).toBeChecked();
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Order' })).toHaveValue('received');
    expect(screen.getByLabelText(/^Seller/)).toHaveValue('nord');
  });

  it('offers no way back to results on an invoice opened from a link', async () => {
    renderApp('/invoice?parcelCode=PC01', { auth: createFakeAuthClient({ signedInAs: MONEY }) });
    await screen.findByTitle('PC01');
    expect(screen.queryByRole('link', { name: 'Back to results' })).not.toBeInTheDocument();
  });

  it("does not hand one account's selection to the next one signing in on the tab", async () => {
    sessionStorage.setItem('finance-selection', JSON.stringify({ uid: 'someone-else', codes: ['PC01'] }));
    renderApp('/finance', { auth: createFakeAuthClient({ signedInAs: MONEY }) });
    const table = await screen.findByRole('table', { name: 'Invoices found' });
    await waitFor(() => expect(within(table).getByRole('checkbox', { name: 'Select PC01' })).not.toBeChecked());
    expect(screen.getByText('0 selected')).toBeInTheDocument();
  });
});
