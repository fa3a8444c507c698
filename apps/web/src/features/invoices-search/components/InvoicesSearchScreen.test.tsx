import type { InvoiceSummary } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup, emptySearchSums } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { readSearchParams, writeSearchParams } from '../hooks/use-invoice-search-params';

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

/** GET /invoices answering from a list, remembering each query; POST /invoices/zip answering a small ZIP. */
function fakeInvoicesApi(items: InvoiceSummary[]) {
  const queries: URLSearchParams[] = [];
  const zips: unknown[] = [];
  const handlers = [
    emptySearchSums,
    http.get(`${API}/invoices`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      if (query.get('seller') === 'ab')
        return HttpResponse.json({ message: 'Type at least 3 letters of the name', code: 'invalid' }, { status: 400 });
      const seller = query.get('seller')?.toLowerCase();
      const found = items.filter((item) => !seller || item.sellerName?.toLowerCase().includes(seller));
      const offset = Number(query.get('offset'));
      const limit = Number(query.get('limit'));
      return HttpResponse.json({
        items: found.slice(offset, offset + limit),
        total: found.length,
        totalIsAtLeast: false,
      });
    }),
    // This sign-in confirmed with its passkey already: the passkey step has its own tests.
    http.get(`${API}/me/step-up`, () =>
      HttpResponse.json({
        passkeys: 1,
        steppedUpUntil: '2099-01-01T00:00:00.000Z',
        maxAgeSeconds: 600,
        recentSignIn: true,
      }),
    ),
    http.post(`${API}/invoices/zip`, async ({ request }) => {
      zips.push(await request.json());
      return new HttpResponse(new Uint8Array(2048), {
        headers: { 'content-type': 'application/zip', 'x-invoice-count': '2', 'x-expected-bytes': '2048' },
      });
    }),
  ];
  return { handlers, queries, zips };
}

describe('the Invoices page', () => {
  it('keeps its search, order and page in the address, leaving out the defaults', () => {
    const params = readSearchParams(
      new URLSearchParams('seller=acme&from=2026-01-01&changed=1&sort=-amount&page=3&size=9'),
      50,
    );
    expect(params).toEqual({
      filter: { seller: 'acme', issuedFrom: '2026-01-01', bankDetailsChanged: 'true' },
      sort: '-amount',
      page: 2,
      pageSize: 50,
    });
    expect(writeSearchParams(params, 50).toString()).toBe('seller=acme&from=2026-01-01&changed=1&sort=-amount&page=3');
    expect(readSearchParams(new URLSearchParams('format=docx&sort=colour&page=-1'), 25)).toEqual({
      filter: {},
      sort: '-received',
      page: 0,
      pageSize: 25,
    });
  });

  it('shows the header link and the page to a finance user, searches, opens an invoice, downloads a ZIP', async () => {
    const fake = fakeInvoicesApi([
      invoice('PC1'),
      invoice('PC2', { sellerName: 'Rhein Express KG', bankDetailsChanged: true }),
      invoice('PC3', { format: 'pdf', invoiceNumber: null, totalGross: null, sellerName: null, buyerName: null }),
    ]);
    server.use(accountLookup({ [MONEY]: { finance: true } }), ...fake.handlers);
    const { user } = renderApp('/finance?seller=nord', { auth: createFakeAuthClient({ signedInAs: MONEY }) });
    expect(await screen.findByRole('link', { name: 'Invoices' })).toHaveAttribute('href', '/finance');
    const table = await screen.findByRole('table', { name: 'Invoices found' });
    await within(table).findByRole('link', { name: 'PC1' });
    expect(within(table).getByRole('link', { name: 'PC1' })).toHaveAttribute('href', '/invoice?parcelCode=PC1');
    expect(screen.getByLabelText(/^Seller/)).toHaveValue('nord');
    expect(fake.queries.at(-1)?.get('seller')).toBe('nord');

    await user.clear(screen.getByLabelText(/^Seller/));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await within(table).findByRole('link', { name: 'PC3' });
    expect(screen.getByText('3 invoices')).toBeInTheDocument();
    expect(within(table).getByText('Bank changed')).toHaveAttribute(
      'title',
      'Its payment accounts changed and nobody has checked yet',
    );

    await user.click(within(table).getByRole('checkbox', { name: 'Select PC1' }));
    await user.click(within(table).getByRole('checkbox', { name: 'Select PC3' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download selected (ZIP)' }));
    expect(await screen.findByText('The ZIP with 2 invoices is in your downloads.')).toBeInTheDocument();
    expect(fake.zips).toEqual([{ parcelCodes: ['PC1', 'PC3'] }]);

    await user.click(screen.getByRole('button', { name: 'Download all 3 results (ZIP)' }));
    await waitFor(() => expect(fake.zips).toHaveLength(2));
    expect(fake.zips[1]).toEqual({ search: {}, sort: '-received' });
  });

  it("pages with the admin list's pager, and keeps a selection across pages", async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const fake = fakeInvoicesApi(Array.from({ length: 60 }, (_, index) => invoice(`PC${100 + index}`)));
    server.use(accountLookup({ [MONEY]: { finance: true } }), ...fake.handlers);
    const { user } = renderApp('/finance', { auth: createFakeAuthClient({ signedInAs: MONEY }) });
    const table = await screen.findByRole('table', { name: 'Invoices found' });
    await within(table).findByRole('link', { name: 'PC100' });
    const pager = screen.getByRole('navigation', { name: 'invoices pages' });
    expect(within(pager).getByText('1–50 of 60 invoices')).toBeInTheDocument();
    await user.click(within(table).getByRole('checkbox', { name: 'Select PC100' }));

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    await within(table).findByRole('link', { name: 'PC150' });
    expect(fake.queries.at(-1)?.get('offset')).toBe('50');
    expect(within(pager).getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(table).getByRole('checkbox', { name: 'Select PC150' }));
    const zipBar = screen.getByRole('group', { name: 'Download as ZIP' });
    expect(within(zipBar).getByText('2 selected')).toBeInTheDocument();
    await user.click(within(zipBar).getByRole('button', { name: 'Clear selection' }));
    expect(within(zipBar).getByText('0 selected')).toBeInTheDocument();
    scrollTo.mockRestore();
  });

  it("shows the server's reason for a search it refuses", async () => {
    const fake = fakeInvoicesApi([invoice('PC1')]);
    server.use(accountLookup({ [MONEY]: { finance: true } }), ...fake.handlers);
    renderApp('/finance?seller=ab', { auth: createFakeAuthClient({ signedInAs: MONEY }) });
    expect(await screen.findByText('Type at least 3 letters of the name')).toBeInTheDocument();
  });

  it('tells someone without the finance role that the page is not theirs, with no header link', async () => {
    const fake = fakeInvoicesApi([invoice('PC1')]);
    server.use(accountLookup({ 'user@example.com': {} }), ...fake.handlers);
    renderApp('/finance', { auth: createFakeAuthClient({ signedInAs: 'user@example.com' }) });
    expect(await screen.findByText(/The Invoices page is for people with the finance role/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Invoices' })).toBeNull();
    expect(fake.queries).toHaveLength(0);
  });
});
