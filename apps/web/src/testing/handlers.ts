import { http, HttpResponse } from 'msw';
import { API } from './msw-server';

/** The account lookup as the API answers it: the admin flag only for a bearer caller. */
export const accountLookup = (accounts: Record<string, { admin?: boolean; finance?: boolean; activated?: boolean }>) =>
  http.get(`${API}/users/:email`, ({ request, params }) => {
    const email = decodeURIComponent(String(params.email));
    const account = accounts[email];
    if (!account)
      return HttpResponse.json({ message: 'No account is registered for this e-mail address.' }, { status: 404 });
    const withRole = request.headers.get('authorization')?.startsWith('Bearer ');
    return HttpResponse.json({
      email,
      activated: account.activated ?? true,
      ...(withRole ? { admin: account.admin ?? false, finance: account.finance ?? false } : {}),
    });
  });

/** GET /invoices/:parcelCode for an invoice that is a plain PDF: no facts, so no panel. */
export const plainPdfFacts = http.get(`${API}/invoices/:parcelCode`, ({ params }) =>
  HttpResponse.json({
    parcelCode: String(params.parcelCode),
    format: 'pdf',
    syntax: null,
    profile: null,
    profileName: null,
    invoiceNumber: null,
    typeCode: null,
    issueDate: null,
    dueDate: null,
    currency: null,
    sellerName: null,
    sellerVatId: null,
    buyerName: null,
    buyerReference: null,
    totalNet: null,
    totalTax: null,
    totalGross: null,
    amountDue: null,
    iban: null,
    lineCount: null,
    validation: null,
    uploadedAt: '2025-01-01T09:00:00.000Z',
    hasXml: false,
    pdfIsRendering: false,
    bankDetailsChangedAt: null,
    amountChangedAt: null,
  }),
);

/** The Invoices page's sums of a whole search, empty: for tests about something else on that page. */
export const emptySearchSums = http.get(`${API}/invoices/search/summary`, () =>
  HttpResponse.json({ currencies: [], months: [], withoutAmount: 0 }),
);
