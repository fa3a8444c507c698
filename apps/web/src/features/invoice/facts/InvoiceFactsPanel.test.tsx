import type { InvoiceFacts, InvoiceWarning } from '@portal/contract';
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
  paymentAccounts: ['DE02120300000000202051'],
  lineCount: 2,
  validation: null,
  uploadedAt: '2025-02-01T10:00:00.000Z',
  hasXml: true,
  pdfIsRendering: false,
  bankDetailsChangedAt: null,
  amountChangedAt: null,
  warnings: [],
};

const bankDetailsChanged: InvoiceWarning = {
  id: 7,
  kind: 'bank-details',
  raisedAt: '2025-02-01T10:00:00.000Z',
  detail: 'payment account …2051 -> …5555',
};

let order: string[];

function api(facts: InvoiceFacts | Response, account: { admin?: boolean } = {}) {
  server.use(
    accountLookup({ 'user@example.com': account }),
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
    // The invoice comes first in the page, so a phone shows it on arrival; the panel follows it.
    expect(frame.compareDocumentPosition(panel) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(panel).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the EN 16931 check made at arrival as a badge beside the facts', async () => {
    api({ ...facturX, validation: { status: 'valid', rulesVersion: 'en16931-1.0', findings: [], omittedFindings: 0 } });
    open();
    const panel = await screen.findByRole('complementary', { name: 'Invoice details' });
    expect(within(panel).getByText('EN 16931: valid')).toBeInTheDocument();
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

  it('shows each warning no second person has acknowledged, and no Acknowledge button to a non-admin', async () => {
    api({
      ...facturX,
      bankDetailsChangedAt: '2025-02-01T10:00:00.000Z',
      amountChangedAt: '2025-03-04T10:00:00.000Z',
      warnings: [
        bankDetailsChanged,
        { id: 8, kind: 'amount', raisedAt: '2025-03-04T10:00:00.000Z', detail: 'amount due 1.00 EUR -> 2.00 EUR' },
        {
          id: 9,
          kind: 'visible-account',
          raisedAt: '2025-03-04T10:00:00.000Z',
          detail: 'shown on the PDF, not in its XML: …5555',
        },
      ],
    });
    // The account lookup answers "not an admin": only after that does the missing button mean anything.
    const lookedUp = new Promise<void>((resolve) => {
      server.events.on('response:mocked', ({ request }) => {
        if (new URL(request.url).pathname.startsWith('/api/users/')) resolve();
      });
    });
    open();
    const panel = await screen.findByRole('complementary', { name: 'Invoice details' });
    expect(within(panel).getByText('Bank details changed on 1 Feb 2025.')).toBeInTheDocument();
    expect(within(panel).getByText('payment account …2051 \u2192 …5555')).toBeInTheDocument();
    expect(within(panel).getByText('Amount changed on 4 Mar 2025.')).toBeInTheDocument();
    expect(
      within(panel).getByText('The PDF shows an account its e-invoice data does not have (4 Mar 2025).'),
    ).toBeInTheDocument();
    await lookedUp;
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.events.removeAllListeners();
    expect(within(panel).queryByRole('button', { name: 'Acknowledge' })).not.toBeInTheDocument();
  });

  it('shows the panel for a plain PDF only while a warning waits, with nothing but the warning', async () => {
    api({
      ...facturX,
      format: 'pdf',
      syntax: null,
      invoiceNumber: null,
      hasXml: false,
      warnings: [{ id: 3, kind: 'e-invoice-removed', raisedAt: '2025-02-01T10:00:00.000Z', detail: 'facturx -> pdf' }],
    });
    open();
    const panel = await screen.findByRole('complementary', { name: 'Invoice details' });
    expect(within(panel).getByText('Replaced by a plain PDF on 1 Feb 2025.')).toBeInTheDocument();
    expect(within(panel).queryByText('IBAN')).not.toBeInTheDocument();
    expect(await screen.findByTitle('EINV-1')).toBeInTheDocument();
  });

  it('lets an admin acknowledge a warning, then shows the invoice without it', async () => {
    let acknowledged = false;
    api({ ...facturX, warnings: [bankDetailsChanged] }, { admin: true });
    server.use(
      http.get(`${API}/invoices/:parcelCode`, () =>
        HttpResponse.json({ ...facturX, warnings: acknowledged ? [] : [bankDetailsChanged] }),
      ),
      http.post(`${API}/invoices/:parcelCode/warnings/:id/acknowledge`, ({ params, request }) => {
        order.push(
          `acknowledge ${String(params.parcelCode)} ${String(params.id)} ${request.headers.get('authorization')}`,
        );
        acknowledged = true;
        return HttpResponse.json({
          ...bankDetailsChanged,
          acknowledgedAt: '2025-02-02T10:00:00.000Z',
          acknowledgedBy: 'x',
        });
      }),
    );
    const { user } = open();
    const panel = await screen.findByRole('complementary', { name: 'Invoice details' });
    await user.click(await within(panel).findByRole('button', { name: 'Acknowledge' }));
    await waitFor(() =>
      expect(within(panel).queryByText('Bank details changed on 1 Feb 2025.')).not.toBeInTheDocument(),
    );
    expect(order).toContain('acknowledge EINV-1 7 Bearer token-of-user@example.com');
  });

  it("shows the server's refusal when the admin uploaded the version themselves", async () => {
    api({ ...facturX, warnings: [bankDetailsChanged] }, { admin: true });
    const refusal = 'You uploaded the version that raised this warning: another administrator must acknowledge it.';
    server.use(
      http.post(`${API}/invoices/:parcelCode/warnings/:id/acknowledge`, () =>
        HttpResponse.json({ message: refusal, code: 'forbidden' }, { status: 403 }),
      ),
    );
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Acknowledge' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.getByText('Bank details changed on 1 Feb 2025.')).toBeInTheDocument();
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

  for (const typeCode of ['381', '261', '396']) {
    it(`labels a credit note's total (type ${typeCode}) as the amount credited, not due`, async () => {
      api({ ...facturX, typeCode });
      open();
      const panel = await screen.findByRole('complementary', { name: /details$/ });
      expect(within(panel).getByText('Amount credited').nextElementSibling).toHaveTextContent(/529\.87/);
      expect(within(panel).queryByText('Amount due')).not.toBeInTheDocument();
    });
  }

  it('shows a changed account whole, old and new, with the amount, the day and the advice to call the seller', async () => {
    const terms = (accounts: string[], amount: string) => ({ accounts, amount, currency: 'EUR' });
    api({
      ...facturX,
      warnings: [
        {
          ...bankDetailsChanged,
          change: {
            before: terms(['DE02120300000000202051'], '1453.76'),
            after: terms(['GB33BUKB20201555555555'], '1453.76'),
          },
        },
        {
          id: 8,
          kind: 'amount',
          raisedAt: '2025-03-04T10:00:00.000Z',
          detail: 'amount due 1453.76 EUR -> 1953.76 EUR',
          change: {
            before: terms(['GB33BUKB20201555555555'], '1453.76'),
            after: terms(['GB33BUKB20201555555555'], '1953.76'),
          },
        },
      ],
    });
    open();
    const panel = await screen.findByRole('complementary', { name: 'Invoice details' });
    // One block, not one box per warning: both headlines, the change told once from the first Was to the last Now.
    const block = within(panel).getByRole('region', { name: 'Check before paying' });
    expect(within(panel).queryAllByRole('alert')).toHaveLength(0);
    expect(block).toHaveTextContent('Bank details changed on 1 Feb 2025.');
    expect(block).toHaveTextContent('Amount changed on 4 Mar 2025.');
    expect(block).toHaveTextContent(/Account\s*Was DE02 1203 0000 0000 2020 51\s*Now GB33 BUKB 2020 1555 5555 55/);
    expect(block).toHaveTextContent(/Amount\s*Was €\s?1,453\.76\s*Now €\s?1,953\.76\s*Up €\s?500\.00\./);
    expect(
      within(block)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Account', 'Amount']);
    expect(block).toHaveTextContent(/call the seller on a phone number you already know/);
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
