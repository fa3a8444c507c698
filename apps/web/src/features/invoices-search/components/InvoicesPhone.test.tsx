import type { InvoiceSummary } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup, emptySearchSums } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';

const MONEY = 'money@example.com';
const summary: InvoiceSummary = {
  parcelCode: 'PC1',
  format: 'facturx',
  invoiceNumber: 'INV-1',
  issueDate: '2026-03-01',
  sellerName: 'Nordfracht AG',
  buyerName: 'Weber Bau GmbH',
  totalGross: '1190.00',
  currency: 'EUR',
  uploadedAt: '2026-03-02T10:00:00.000Z',
  hasXml: true,
  bankDetailsChanged: false,
};

beforeEach(() => {
  // A phone: every media query of the app's phone range matches.
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('max-width: 575.98px'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
  server.use(
    accountLookup({ [MONEY]: { finance: true } }),
    emptySearchSums,
    http.get(`${API}/invoices`, () => HttpResponse.json({ items: [summary], total: 1, totalIsAtLeast: false })),
    http.get(`${API}/me/step-up`, () =>
      HttpResponse.json({
        passkeys: 1,
        steppedUpUntil: '2099-01-01T00:00:00.000Z',
        maxAgeSeconds: 600,
        recentSignIn: true,
      }),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the Invoices page on a phone', () => {
  it('folds the filters under one line, so the first invoice comes first, and folds them again after a search', async () => {
    const { user } = renderApp('/finance?seller=nord', { auth: createFakeAuthClient({ signedInAs: MONEY }) });
    const cards = await screen.findByRole('list', { name: 'Invoices found' });
    await within(cards).findByRole('link', { name: 'PC1' });
    const toggle = screen.getByText('Search and filters (1 in use)');
    const details = toggle.closest('details')!;
    expect(details).not.toHaveAttribute('open');

    await user.click(toggle);
    expect(details).toHaveAttribute('open');
    await user.clear(screen.getByLabelText(/^Seller/));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Search and filters')).toBeInTheDocument();
    expect(details).not.toHaveAttribute('open');
  });
});
