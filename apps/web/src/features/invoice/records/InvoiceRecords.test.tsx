import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup, plainPdfFacts } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import type * as DrawPdf from '../pdf/draw-pdf';

const { drawPdf } = vi.hoisted(() => ({ drawPdf: vi.fn<typeof DrawPdf.drawPdf>() }));
vi.mock('../pdf/draw-pdf', () => ({ drawPdf }));

const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const accounts = { 'user@example.com': { uid: 'uid-user', password: 'user-pass' } };

const open = (path: string, config = {}) =>
  renderApp(path, { auth: createFakeAuthClient({ accounts, signedInAs: 'user@example.com' }), config });

const version = (id: number, overrides: object = {}) => ({
  id,
  receivedAt: '2026-11-20T10:15:00.000Z',
  receivedFrom: 'service',
  format: 'ubl',
  profileName: 'Peppol BIS Billing 3.0',
  invoiceNumber: `INV-${id}`,
  typeCode: '380',
  issueDate: '2026-11-19',
  amountDue: '1656.25',
  totalGross: '1656.25',
  currency: 'EUR',
  paymentAccounts: ['DE02120300000000202051'],
  sha256: 'a'.repeat(64),
  size: 1000,
  hasXml: true,
  current: false,
  downloadable: true,
  warnings: [],
  validation: { status: 'valid', rulesVersion: 'en16931-1.1', findingCount: 0, fatalRules: [] },
  ...overrides,
});

let requested: string[];

beforeEach(() => {
  requested = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:test/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  server.use(
    accountLookup({ 'user@example.com': {} }),
    plainPdfFacts,
    http.get(`${API}/invoice`, ({ request }) => {
      const code = new URL(request.url).searchParams.get('parcelCode');
      if (code === 'UNKNOWN1') return HttpResponse.json({ message: 'No invoice', code: 'not-found' }, { status: 404 });
      return new HttpResponse(PDF, { headers: { 'content-type': 'application/pdf' } });
    }),
    http.get(`${API}/recent-invoices`, () => {
      requested.push('recent');
      return HttpResponse.json({
        invoices: [
          {
            parcelCode: 'DEMO000001',
            openedAt: '2026-11-26T10:00:00Z',
            format: 'pdf',
            invoiceNumber: null,
            typeCode: null,
            sellerName: null,
            amountDue: null,
            currency: null,
          },
          {
            parcelCode: 'DEMO000002',
            openedAt: '2026-11-26T09:00:00Z',
            format: 'ubl',
            invoiceNumber: 'INV-7',
            typeCode: '261',
            sellerName: 'Seller AG',
            amountDue: '12.50',
            currency: 'EUR',
          },
        ],
      });
    }),
    http.get(`${API}/invoices/:parcelCode/versions`, ({ params }) =>
      HttpResponse.json({
        parcelCode: params.parcelCode,
        versions: [
          version(3, {
            current: true,
            format: 'pdf',
            profileName: null,
            invoiceNumber: null,
            amountDue: null,
            paymentAccounts: null,
            hasXml: false,
            receivedFrom: 'admin@example.com',
            warnings: [{ kind: 'e-invoice-removed', detail: 'ubl -> pdf', acknowledged: false }],
            validation: null,
          }),
          version(2, {
            warnings: [{ kind: 'bank-details', detail: 'payment account …2051 -> …5555', acknowledged: true }],
            validation: {
              status: 'invalid',
              rulesVersion: 'en16931-1.1',
              findingCount: 3,
              fatalRules: ['BR-CO-16', 'BR-S-08'],
            },
          }),
          // As someone who is not a stepped-up administrator or finance user reads an earlier version.
          version(1, { receivedFrom: 'administrator', paymentAccounts: null, downloadable: false }),
        ],
      }),
    ),
    http.get(`${API}/invoices/:parcelCode/versions/:id/:part`, ({ params }) => {
      requested.push(`version ${String(params.id)} ${String(params.part)}`);
      return new HttpResponse(PDF, { headers: { 'content-type': 'application/pdf' } });
    }),
  );
});

describe('recently opened', () => {
  it('loads only when opened, lists the other invoices with what names them, each a link to it', async () => {
    const { user } = open('/invoice?parcelCode=DEMO000001');
    await screen.findByTitle('DEMO000001');
    expect(requested).not.toContain('recent');
    await user.click(screen.getByRole('button', { name: 'Recently opened' }));
    const link = await screen.findByRole('link', { name: /DEMO000002/ });
    expect(link).toHaveAttribute('href', '/invoice?parcelCode=DEMO000002');
    // The document type from the contract's one table, as the facts panel and the PDF name it.
    expect(link).toHaveTextContent('Self-billed credit note INV-7 · Seller AG · €12.50');
    expect(screen.queryByRole('link', { name: /DEMO000001/ })).not.toBeInTheDocument();
    await user.click(link);
    expect(await screen.findByTitle('DEMO000002')).toBeInTheDocument();
  });
});

describe('history', () => {
  it('shows every version with its markers, the current one marked, each downloadable', async () => {
    const { user } = open('/invoice?parcelCode=DEMO000003');
    await screen.findByTitle('DEMO000003');
    const toggle = screen.getByRole('button', { name: 'History' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    const history = await screen.findByRole('region', { name: 'History (3 versions)' });
    const [current, older, first] = within(history).getAllByRole('listitem');
    expect(within(current!).getByText('Current')).toBeInTheDocument();
    expect(within(current!).getByText('E-invoice replaced by a plain PDF')).toBeInTheDocument();
    expect(within(current!).getByText('admin@example.com')).toBeInTheDocument();
    expect(within(current!).queryByRole('button', { name: /Download XML/ })).not.toBeInTheDocument();
    expect(within(older!).queryByText('Current')).not.toBeInTheDocument();
    expect(within(older!).getByText('Bank details changed (checked)')).toBeInTheDocument();
    expect(within(older!).getByText('Ingestion service')).toBeInTheDocument();
    expect(within(older!).getByText('DE02 1203 0000 0000 2020 51')).toBeInTheDocument();
    // Each version its own EN 16931 outcome; a plain PDF has none.
    expect(within(current!).queryByText('EN 16931')).not.toBeInTheDocument();
    const outcome = (_: string, element: Element | null) =>
      element?.tagName === 'DD' && element.textContent === 'Invalid: BR-CO-16, BR-S-08';
    expect(within(older!).getByText(outcome)).toBeInTheDocument();
    expect(within(first!).getByText('Valid')).toBeInTheDocument();
    expect(within(first!).getByText('An administrator')).toBeInTheDocument();
    expect(within(first!).queryByText('IBAN')).not.toBeInTheDocument();
    expect(within(first!).queryByRole('button', { name: /Download/ })).not.toBeInTheDocument();
    await user.click(within(older!).getByRole('button', { name: /Download XML/ }));
    await waitFor(() => expect(requested).toContain('version 2 xml'));
    await user.click(toggle);
    expect(screen.queryByRole('region', { name: /History/ })).not.toBeInTheDocument();
  });
});

describe('tell me when it arrives', () => {
  it('is not offered when the portal sends no mail', async () => {
    open('/invoice?parcelCode=UNKNOWN1');
    await screen.findByText('Check the parcel code, or type another one:');
    expect(screen.queryByRole('button', { name: 'Tell me when it arrives' })).not.toBeInTheDocument();
  });

  it('on an unknown code: asks, says until when, and cancels', async () => {
    const notices: { id: number; parcelCode: string; requestedAt: string; expiresAt: string; arrivedAt: null }[] = [
      {
        id: 9,
        parcelCode: 'OTHER1',
        requestedAt: '2026-11-01T00:00:00Z',
        expiresAt: '2026-12-01T00:00:00Z',
        arrivedAt: null,
      },
    ];
    server.use(
      http.get(`${API}/arrival-notices`, () => HttpResponse.json({ notices, limit: 20 })),
      http.post(`${API}/arrival-notices`, async ({ request }) => {
        const { parcelCode } = (await request.json()) as { parcelCode: string };
        const notice = {
          id: 10,
          parcelCode,
          requestedAt: '2026-11-26T00:00:00Z',
          expiresAt: '2026-12-26T00:00:00Z',
          arrivedAt: null,
        };
        notices.push(notice);
        return HttpResponse.json(notice, { status: 201 });
      }),
      http.delete(`${API}/arrival-notices/:id`, ({ params }) => {
        const index = notices.findIndex((notice) => notice.id === Number(params.id));
        const [removed] = notices.splice(index, 1);
        return HttpResponse.json(removed);
      }),
    );
    const { user } = open('/invoice?parcelCode=UNKNOWN1', { arrivalNotices: true });
    // The spec's modal first; its page keeps the offer after "Continue".
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Tell me when it arrives' }));
    expect(
      await screen.findByText('You will get one e-mail when the invoice for UNKNOWN1 arrives (until 26 Dec 2026).'),
    ).toBeInTheDocument();
    // The confirmation replaces the red "could not be shown": it is what the page now has to say.
    expect(screen.getByRole('status')).toHaveClass('alert-success');
    expect(screen.queryByText('The invoice could not be shown.')).not.toBeInTheDocument();
    expect(screen.getByText('You are waiting for 1 other invoice')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel request' }));
    expect(await screen.findByRole('button', { name: 'Tell me when it arrives' })).toBeInTheDocument();
    expect(screen.getByText('The invoice could not be shown.')).toBeInTheDocument();
    expect(notices.map((notice) => notice.parcelCode)).toEqual(['OTHER1']);
  });
});
