import type { InvoiceSearchSummary, InvoiceSummary } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { uPlotSource } from './load-uplot';

/** uPlot draws on a canvas jsdom does not have: a stand-in records what each chart was given. */
const drawn: { data: unknown[]; label: unknown }[] = [];
class FakeChart {
  static paths = { bars: () => () => null };
  constructor(options: { series: { label?: string }[] }, data: unknown[], holder: HTMLElement) {
    drawn.push({ data, label: options.series[1]?.label });
    holder.append(document.createElement('canvas'));
  }
  setSize() {}
  destroy() {}
}

const MONEY = 'money@example.com';
const invoice = (parcelCode: string, overrides: Partial<InvoiceSummary> = {}): InvoiceSummary => ({
  parcelCode,
  format: 'ubl',
  invoiceNumber: `INV-${parcelCode}`,
  issueDate: '2026-01-15',
  sellerName: 'Nordfracht AG',
  buyerName: `Buyer ${parcelCode}`,
  totalGross: '100.10',
  currency: 'EUR',
  uploadedAt: '2026-03-02T10:00:00.000Z',
  hasXml: true,
  bankDetailsChanged: false,
  ...overrides,
});
const SUMS: InvoiceSearchSummary = {
  currencies: [
    { currency: 'EUR', total: '1300.35', count: 3 },
    { currency: 'NOK', total: '5000.00', count: 1 },
  ],
  months: [
    { currency: 'EUR', month: '2026-01', total: '100.10', count: 1 },
    { currency: 'EUR', month: '2026-02', total: '1200.25', count: 2 },
    { currency: 'NOK', month: '2026-01', total: '5000.00', count: 1 },
  ],
  withoutAmount: 1,
};

/** The API of the page: a page of two invoices out of five, the sums of all five, each query remembered. */
function serve(sums: (query: URLSearchParams) => Response = () => HttpResponse.json(SUMS)) {
  const calls: string[] = [];
  const sumQueries: URLSearchParams[] = [];
  const pageQueries: URLSearchParams[] = [];
  server.use(
    accountLookup({ [MONEY]: { finance: true } }),
    http.get(`${API}/invoices`, ({ request }) => {
      calls.push('page');
      pageQueries.push(new URL(request.url).searchParams);
      return HttpResponse.json({
        items: [
          invoice('PC1', { validation: 'invalid' }),
          invoice('PC2', { validation: 'warnings', totalGross: '1200.25' }),
          invoice('PC3', { format: 'pdf', totalGross: null, currency: null, validation: null }),
        ],
        total: 5,
        totalIsAtLeast: false,
      });
    }),
    http.get(`${API}/invoices/search/summary`, ({ request }) => {
      calls.push('sums');
      const query = new URL(request.url).searchParams;
      sumQueries.push(query);
      return sums(query);
    }),
    http.get(`${API}/me/step-up`, () =>
      HttpResponse.json({
        passkeys: 1,
        steppedUpUntil: '2099-01-01T00:00:00.000Z',
        maxAgeSeconds: 600,
        recentSignIn: true,
      }),
    ),
  );
  return { calls, sumQueries, pageQueries };
}

const open = async (path = '/finance') => {
  renderApp(path, { auth: createFakeAuthClient({ signedInAs: MONEY }) });
  const table = await screen.findByRole('table', { name: 'Invoices found' });
  await within(table).findByRole('link', { name: 'PC1' });
  return table;
};

beforeEach(() => {
  drawn.length = 0;
  vi.spyOn(uPlotSource, 'load').mockResolvedValue(FakeChart as unknown as Awaited<ReturnType<typeof uPlotSource.load>>);
});

describe('the picture of the month on the Invoices page', () => {
  it('totals the whole search per currency after the list arrived, with the same filters and no page', async () => {
    const api = serve();
    await open('/finance?seller=nord&sort=amount&page=1');
    const totals = await screen.findByText('All results:');
    expect(totals.parentElement).toHaveTextContent(
      /All results: €\s?1,300\.35 \(3\) · (NOK\s?5,000\.00|5[.,\s]000[.,]00\s?kr) \(1\) · 1 without an amount/,
    );
    // More results than this page: the page's own totals stay beside them.
    expect(screen.getByText('This page:')).toBeInTheDocument();
    expect(api.calls[0]).toBe('page');
    expect(api.sumQueries).toHaveLength(1);
    expect(Object.fromEntries(api.sumQueries[0]!)).toEqual({ seller: 'nord' });
  });

  it('draws one chart per currency, lazily, named in words; "Show as table" shows every figure', async () => {
    serve();
    await open();
    const chart = await screen.findByRole('img', { name: /^Invoice amounts by month of issue\./ });
    expect(chart).toHaveAccessibleName(
      /EUR, Jan 2026 to Feb 2026: largest Feb 2026, €\s?1,200\.25\. NOK, Jan 2026: largest Jan 2026, /,
    );
    await waitFor(() => expect(drawn.map((chart) => chart.label)).toContain('NOK'));
    expect(drawn.map((chart) => chart.label)).toEqual(['EUR', 'NOK']);
    expect(drawn[0]?.data[1]).toEqual([100.1, 1200.25]);

    await userEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    const table = screen.getByRole('table', { name: 'Invoice amounts by month of issue, per currency' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Jan 2026EUR€\s?100\.101$/),
      expect.stringMatching(/^Feb 2026EUR€\s?1,200\.252$/),
      expect.stringMatching(/^Jan 2026NOK.*5[.,\s]?000[.,]00.*1$/),
    ]);
    expect(screen.queryByRole('img', { name: /Invoice amounts by month/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show as chart' }));
    expect(await screen.findByRole('img', { name: /Invoice amounts by month/ })).toBeInTheDocument();
  });

  it('says so when the sums cannot be had, and still shows the list', async () => {
    serve(() =>
      HttpResponse.json({ message: 'Please wait 20 seconds and try again.', code: 'rate-limited' }, { status: 429 }),
    );
    const table = await open();
    expect(await screen.findByText('The totals of all results could not be worked out just now.')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'PC1' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Invoice amounts by month/ })).not.toBeInTheDocument();
  });
});

describe('the Validation column and filter', () => {
  it('shows the stored check as a calm badge, a dash where nothing was checked', async () => {
    serve();
    const table = await open();
    expect(within(table).getByRole('columnheader', { name: 'Validation' })).toBeInTheDocument();
    const rowOf = (code: string) => within(table).getByRole('link', { name: code }).closest('tr')!;
    expect(within(rowOf('PC1')).getByText('Invalid')).toHaveAttribute(
      'title',
      'Breaks EN 16931 business rules: open it to read which before paying',
    );
    expect(within(rowOf('PC1')).getByText('Invalid')).toHaveClass('status-failed');
    expect(within(rowOf('PC2')).getByText('Warnings')).toHaveClass('status-invited');
    expect(within(rowOf('PC3')).getByText('Not checked')).toBeInTheDocument();
  });

  it('leaves the column out when nothing on the page was checked (plain PDFs)', async () => {
    serve();
    server.use(
      http.get(`${API}/invoices`, () =>
        HttpResponse.json({
          items: [invoice('PC1', { format: 'pdf', totalGross: null, currency: null, validation: null })],
          total: 1,
          totalIsAtLeast: false,
        }),
      ),
    );
    const table = await open();
    expect(within(table).queryByRole('columnheader', { name: 'Validation' })).not.toBeInTheDocument();
  });

  it('searches by it, kept in the address, and sent to the search and its sums', async () => {
    const api = serve();
    await open();
    await userEvent.selectOptions(screen.getByLabelText('Validation'), 'Invalid');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(api.pageQueries.at(-1)?.get('validation')).toBe('invalid'));
    await waitFor(() => expect(api.sumQueries.at(-1)?.get('validation')).toBe('invalid'));
  });

  it('says that amounts are ordered within their currency', async () => {
    serve();
    await open('/finance?sort=-amount');
    expect(await screen.findByText('Grouped by currency (A to Z), then by amount.')).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Amount, largest first, per currency' })).toBeInTheDocument();
  });
});
