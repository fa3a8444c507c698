import type { InvoiceFacts } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';

const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const XML = '<?xml version="1.0"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:x"/>';
const accounts = { 'user@example.com': { uid: 'uid-user', password: 'user-pass' } };

const facturX: InvoiceFacts = {
  parcelCode: 'EINV-1',
  format: 'facturx',
  syntax: 'cii',
  profile: 'urn:cen.eu:en16931:2017',
  profileName: 'Factur-X EN 16931',
  invoiceNumber: '471102',
  typeCode: '380',
  issueDate: '2024-11-05',
  dueDate: '2024-12-15',
  currency: 'EUR',
  sellerName: 'Lieferant GmbH',
  sellerVatId: 'DE123456789',
  buyerName: 'Kunden AG Mitte',
  buyerReference: null,
  totalNet: '473.00',
  totalTax: '56.87',
  totalGross: '529.87',
  amountDue: '529.87',
  iban: 'DE02120300000000202051',
  lineCount: 2,
  uploadedAt: '2025-02-01T10:00:00.000Z',
  hasXml: true,
  pdfIsRendering: false,
  bankDetailsChangedAt: null,
  amountChangedAt: null,
};

let order: string[];

function api(facts: InvoiceFacts | Response) {
  server.use(
    accountLookup({ 'user@example.com': {} }),
    http.get(`${API}/invoice`, () => {
      order.push('pdf');
      return new HttpResponse(PDF, { headers: { 'content-type': 'application/pdf' } });
    }),
    http.get(`${API}/invoices/:parcelCode`, () => {
      order.push('facts');
      return facts instanceof Response ? facts : HttpResponse.json(facts);
    }),
    http.get(`${API}/invoices/:parcelCode/xml`, ({ request }) => {
      order.push(`xml ${request.headers.get('authorization')}`);
      return new HttpResponse(XML, { headers: { 'content-type': 'application/xml' } });
    }),
  );
}

const open = (code = 'EINV-1') =>
  renderApp(`/invoice?parcelCode=${code}`, {
    auth: createFakeAuthClient({ accounts, signedInAs: 'user@example.com' }),
  });

beforeEach(() => {
  order = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:test/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});

describe('the facts panel of an e-invoice', () => {
  it('shows number, British dates, amount due, seller → buyer and IBAN beside the unchanged frame', async () => {
    api(facturX);
    open();
    const panel = await screen.findByRole('complementary', { name: 'Invoice details' });
    const value = (term: string) => within(panel).getByText(term).nextElementSibling?.textContent;
    expect(value('Number')).toBe('471102');
    expect(value('Issued')).toBe('5 Nov 2024');
    expect(value('Due')).toBe('15 Dec 2024');
    // Money as the reader's locale writes it (the test runner's default locale): the euro sign, not the code.
    expect(value('Amount due')).toMatch(/^€\s?529\.87$|^529[.,]87\s?€$/);
    expect(value('Seller \u2192 buyer')).toBe('Lieferant GmbH \u2192 Kunden AG Mitte');
    expect(value('IBAN')).toBe('DE02 1203 0000 0000 2020 51');
    expect(within(panel).getByText('Factur-X EN 16931')).toBeInTheDocument();
    const frame = await screen.findByTitle('EINV-1');
    expect(frame).toHaveClass('invoice-frame');
    // The panel comes first in the page, so it is first on a phone and read first.
    expect(panel.compareDocumentPosition(frame) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(panel).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks for the facts once the PDF has come, never before it', async () => {
    api(facturX);
    open();
    await screen.findByRole('complementary', { name: 'Invoice details' });
    await screen.findByTitle('EINV-1');
    expect(order.slice(0, 2)).toEqual(['pdf', 'facts']);
  });

  it('downloads the XML with the bearer token', async () => {
    api(facturX);
    const { user } = open();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await user.click(await screen.findByRole('button', { name: 'Download XML' }));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    expect(order).toContain('xml Bearer token-of-user@example.com');
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('EINV-1.xml');
  });

  it('says so when the XML cannot be downloaded', async () => {
    api(facturX);
    server.use(http.get(`${API}/invoices/:parcelCode/xml`, () => HttpResponse.json({ message: 'x' }, { status: 500 })));
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Download XML' }));
    expect(await screen.findByText('The XML could not be downloaded. Please try again.')).toBeInTheDocument();
  });

  it('warns when a replacement changed the bank details or the amount', async () => {
    api({ ...facturX, bankDetailsChangedAt: '2025-02-01T10:00:00.000Z', amountChangedAt: '2025-03-04T10:00:00.000Z' });
    open();
    const panel = await screen.findByRole('complementary', { name: 'Invoice details' });
    expect(within(panel).getByText('Bank details changed on 1 Feb 2025.')).toBeInTheDocument();
    expect(within(panel).getByText('Amount changed on 4 Mar 2025.')).toBeInTheDocument();
  });

  it('labels the PDF of an XML-only credit note as a rendering of the XML', async () => {
    api({ ...facturX, format: 'ubl', syntax: 'ubl', typeCode: '381', pdfIsRendering: true });
    open();
    const panel = await screen.findByRole('complementary', { name: 'Credit note details' });
    expect(within(panel).getByText(/rendering of this XML invoice/)).toBeInTheDocument();
  });

  it('names a self-billed credit note as the rendered PDF does (one table in the contract)', async () => {
    api({ ...facturX, typeCode: '261' });
    open();
    expect(await screen.findByRole('complementary', { name: 'Self-billed credit note details' })).toBeInTheDocument();
  });

  it('shows no panel for a plain PDF, nor when the facts cannot be had', async () => {
    api({ ...facturX, format: 'pdf', hasXml: false });
    open();
    await screen.findByTitle('EINV-1');
    await waitFor(() => expect(order).toContain('facts'));
    expect(screen.queryByRole('complementary')).not.toBeInTheDocument();

    api(HttpResponse.json({ message: 'down' }, { status: 503 }));
    open('EINV-2');
    expect(await screen.findByTitle('EINV-2')).toBeInTheDocument();
    expect(screen.queryByRole('complementary')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
