import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup, plainPdfFacts } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import type * as DrawPdf from '../pdf/draw-pdf';

// PDF.js needs a real canvas and a worker, which jsdom lacks: the drawing is an edge here (e2e draws for real).
const { drawPdf } = vi.hoisted(() => ({ drawPdf: vi.fn<typeof DrawPdf.drawPdf>() }));
vi.mock('../pdf/draw-pdf', () => ({ drawPdf }));

const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const NOT_AUTHORIZED = 'You are not authorized to see the invoice. Please contact the UK IT team.';
const APPLICATION_ERROR = 'Application error. Please contact the UK IT team.';
const DOUBLE_CHECK = 'Please double check your parcel code and try the link again';

const accounts = { 'user@example.com': { uid: 'uid-user', password: 'user-pass' } };

interface InvoiceRequest {
  parcelCode: string | null;
  authorization: string | null;
}

let requests: InvoiceRequest[];
let created: Blob[];
let revoked: string[];

/** GET /invoice answered by `respond`; every request is recorded. */
function invoiceApi(respond: (request: InvoiceRequest) => Response | Promise<Response> = () => pdfResponse()) {
  server.use(
    http.get(`${API}/invoice`, ({ request }) => {
      const seen = {
        parcelCode: new URL(request.url).searchParams.get('parcelCode'),
        authorization: request.headers.get('authorization'),
      };
      requests.push(seen);
      return respond(seen);
    }),
  );
}

const pdfResponse = (bytes: Uint8Array = PDF) =>
  new HttpResponse(bytes, { headers: { 'content-type': 'application/pdf', 'cache-control': 'no-store' } });

const errorResponse = (status: number) => HttpResponse.json({ message: `Refused with ${status}` }, { status });

function renderInvoice(path: string, options: Parameters<typeof renderApp>[1] = {}) {
  return renderApp(path, { auth: createFakeAuthClient({ accounts, signedInAs: 'user@example.com' }), ...options });
}

async function expectErrorModal(message: string) {
  const dialog = await screen.findByRole('dialog', { name: 'Error' });
  expect(within(dialog).getByText(message, { exact: true })).toBeInTheDocument();
  return dialog;
}

beforeEach(() => {
  requests = [];
  created = [];
  revoked = [];
  server.use(accountLookup({ 'user@example.com': {} }), plainPdfFacts);
  // jsdom has no blob: URLs; these record what the screen creates and revokes.
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    created.push(blob as Blob);
    return `blob:test/${created.length}`;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url));
});

afterEach(() => {
  delete (navigator as { pdfViewerEnabled?: boolean }).pdfViewerEnabled;
});

describe('the invoice screen: where the parcel code comes from', () => {
  it.each([
    ['the query string on /invoice', '/invoice?parcelCode=DEMO000001'],
    ['the query string on /', '/?parcelCode=DEMO000001'],
    ['a hash route', '/invoice#/invoice?parcelCode=DEMO000001'],
    ['bare hash parameters', '/#parcelCode=DEMO000001'],
  ])('reads it from %s and shows the PDF fetched with the bearer token', async (_source, path) => {
    invoiceApi();
    renderInvoice(path);
    const frame = await screen.findByTitle('DEMO000001');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', 'blob:test/1');
    expect(frame).toHaveClass('invoice-frame');
    expect(screen.getByRole('heading', { level: 1, name: 'Invoice DEMO000001' })).toBeInTheDocument();
    expect(requests).toEqual([{ parcelCode: 'DEMO000001', authorization: 'Bearer token-of-user@example.com' }]);
    expect(created[0]?.type).toBe('application/pdf');
    // Compared as plain arrays: jsdom's and Node's Uint8Array are different classes.
    expect(Array.from(new Uint8Array(await created[0]!.arrayBuffer()))).toEqual(Array.from(PDF));
  });

  it('falls back to the location saved before signing in', async () => {
    invoiceApi();
    sessionStorage.setItem('beforeLogin', JSON.stringify({ pathname: '/invoice', search: '?parcelCode=SAVED-1' }));
    renderInvoice('/invoice');
    expect(await screen.findByTitle('SAVED-1')).toHaveAttribute('src', 'blob:test/1');
    expect(requests.map((request) => request.parcelCode)).toEqual(['SAVED-1']);
  });

  it('shows the double-check message and makes no request when there is no code', async () => {
    invoiceApi();
    const { user, auth } = renderInvoice('/invoice');
    await expectErrorModal(DOUBLE_CHECK);
    await screen.findByText('user@example.com');
    expect(requests).toEqual([]);
    // The header's own lookup asked for a token; the invoice screen did not.
    expect(auth.tokenRequests.length).toBeLessThanOrEqual(1);
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests).toEqual([]);
  });
});

describe('the invoice screen: the error catalogue', () => {
  it.each([
    [401, NOT_AUTHORIZED],
    [500, APPLICATION_ERROR],
    [502, APPLICATION_ERROR],
    [503, APPLICATION_ERROR],
    [400, DOUBLE_CHECK],
    [403, DOUBLE_CHECK],
    [404, DOUBLE_CHECK],
    [429, DOUBLE_CHECK],
  ])('status %i shows "%s"', async (status, message) => {
    invoiceApi(() => errorResponse(status));
    renderInvoice('/invoice?parcelCode=DEMO000001');
    await expectErrorModal(message);
    expect(screen.queryByTitle('DEMO000001')).not.toBeInTheDocument();
  });

  it("shows the server's request id as a reference to quote, beside the spec's message", async () => {
    invoiceApi(() =>
      HttpResponse.json(
        { message: 'Something went wrong on our side.', code: 'internal', requestId: 'req-0123456789' },
        { status: 500, headers: { 'x-request-id': 'req-0123456789' } },
      ),
    );
    renderInvoice('/invoice?parcelCode=DEMO000001');
    const dialog = await expectErrorModal(APPLICATION_ERROR);
    expect(within(dialog).getByTestId('error-reference')).toHaveTextContent('Reference: req-0123456789');
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toBeInTheDocument();
  });

  it('shows no reference when no response arrived', async () => {
    invoiceApi(() => HttpResponse.error());
    renderInvoice('/invoice?parcelCode=DEMO000001');
    const dialog = await expectErrorModal(APPLICATION_ERROR);
    expect(within(dialog).queryByTestId('error-reference')).not.toBeInTheDocument();
  });

  it('shows the application error when no response arrives', async () => {
    invoiceApi(() => HttpResponse.error());
    renderInvoice('/invoice?parcelCode=DEMO000001');
    await expectErrorModal(APPLICATION_ERROR);
  });

  it('ends the "Please contact" messages with the configured support contact', async () => {
    invoiceApi(() => errorResponse(401));
    renderInvoice('/invoice?parcelCode=DEMO000001', { config: { supportContact: 'the service desk on 0800 000 000' } });
    await expectErrorModal(
      'You are not authorized to see the invoice. Please contact the service desk on 0800 000 000.',
    );
  });

  it('refreshes an expired token once and retries after a 401', async () => {
    invoiceApi(({ authorization }) =>
      authorization === 'Bearer token-of-user@example.com-refreshed' ? pdfResponse() : errorResponse(401),
    );
    const { auth } = renderInvoice('/invoice?parcelCode=DEMO000001');
    expect(await screen.findByTitle('DEMO000001')).toHaveAttribute('src', 'blob:test/1');
    expect(requests.map((request) => request.authorization)).toEqual([
      'Bearer token-of-user@example.com',
      'Bearer token-of-user@example.com-refreshed',
    ]);
    expect(auth.tokenRequests).toContain(true);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('gives up after one refresh when the caller is really not allowed', async () => {
    invoiceApi(() => errorResponse(401));
    renderInvoice('/invoice?parcelCode=DEMO000001');
    await expectErrorModal(NOT_AUTHORIZED);
    expect(requests).toHaveLength(2);
  });

  it('"Continue" closes the modal and clears the error; a failing Reload raises it again, a good one shows the PDF', async () => {
    let answer = () => errorResponse(503);
    invoiceApi(() => answer());
    const { user } = renderInvoice('/invoice?parcelCode=DEMO000001');
    await expectErrorModal(APPLICATION_ERROR);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('The invoice could not be shown.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reload' }));
    await expectErrorModal(APPLICATION_ERROR);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    answer = () => pdfResponse();
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(await screen.findByTitle('DEMO000001')).toHaveAttribute('src', 'blob:test/1');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('the invoice screen: a way on from an error', () => {
  it('keeps the reason after "Continue" and opens another parcel code from the field', async () => {
    invoiceApi(({ parcelCode }) => (parcelCode === 'DEMO000002' ? pdfResponse() : errorResponse(404)));
    const { user, router } = renderInvoice('/invoice?parcelCode=WRONG1');
    await user.click(within(await expectErrorModal(DOUBLE_CHECK)).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('The invoice could not be shown.').closest('.alert')).toHaveTextContent(DOUBLE_CHECK);
    // Asking again cannot help with an unknown code.
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();
    const field = screen.getByLabelText('Parcel code');
    expect(field).toHaveValue('WRONG1');
    // Focus comes back to the field that is the way on, not to the page's body.
    await waitFor(() => expect(field).toHaveFocus());
    await user.clear(field);
    // As typed on a phone: lower case, with the space a paste brings.
    await user.type(field, ' demo000002 ');
    await user.click(screen.getByRole('button', { name: 'Open invoice' }));
    await waitFor(() => expect(router.state.location.search).toBe('?parcelCode=DEMO000002'));
    expect(await screen.findByTitle('DEMO000002')).toHaveAttribute('src', 'blob:test/1');
  });

  it('says the reason once: in the modal while it is open, on the page after "Continue"', async () => {
    invoiceApi(() => errorResponse(404));
    const { user } = renderInvoice('/invoice?parcelCode=WRONG1');
    const dialog = await expectErrorModal(DOUBLE_CHECK);
    expect(screen.getAllByText(DOUBLE_CHECK)).toHaveLength(1);
    expect(screen.getByText('The invoice could not be shown.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getAllByText(DOUBLE_CHECK)).toHaveLength(1);
  });

  it('asks for the facts only once the PDF was found, so an unknown code is asked about once', async () => {
    const factsAskedFor: string[] = [];
    server.use(
      http.get(`${API}/invoices/:parcelCode`, ({ params }) => {
        factsAskedFor.push(String(params.parcelCode));
        return HttpResponse.json({ message: 'No invoice was found for this parcel code.' }, { status: 404 });
      }),
    );
    invoiceApi(() => errorResponse(404));
    renderInvoice('/invoice?parcelCode=NOPE0000');
    await expectErrorModal(DOUBLE_CHECK);
    expect(requests).toHaveLength(1);
    expect(factsAskedFor).toEqual([]);
  });

  it('shows no support reference for an unknown code, only for a server failure', async () => {
    invoiceApi(() =>
      HttpResponse.json(
        { message: 'No invoice was found for this parcel code.', code: 'not-found' },
        { status: 404, headers: { 'x-request-id': 'req-404' } },
      ),
    );
    renderInvoice('/invoice?parcelCode=NOPE0000');
    const dialog = await expectErrorModal(DOUBLE_CHECK);
    expect(within(dialog).queryByTestId('error-reference')).not.toBeInTheDocument();
  });

  it('tells an account that is not allowed so and offers Sign Out, not another parcel code', async () => {
    invoiceApi(() =>
      HttpResponse.json(
        { message: 'Your account is not allowed to use this portal. Please contact the website administrator.' },
        { status: 401 },
      ),
    );
    const { user, router, auth } = renderInvoice('/invoice?parcelCode=DEMO000001');
    await user.click(within(await expectErrorModal(NOT_AUTHORIZED)).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('You are signed in as user@example.com.')).toBeInTheDocument();
    expect(screen.getByText(/^Your account is not allowed to use this portal/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Parcel code')).not.toBeInTheDocument();
    expect(screen.queryByText(NOT_AUTHORIZED)).not.toBeInTheDocument();
    const signOuts = screen.getAllByRole('button', { name: 'Sign Out' });
    // The header's and the page's.
    expect(signOuts).toHaveLength(2);
    await user.click(signOuts[1]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(auth.calls).toContain('signOut');
  });

  it('offers the parcel-code field when the link has no code', async () => {
    invoiceApi();
    const { user, router } = renderInvoice('/invoice');
    await user.click(within(await expectErrorModal(DOUBLE_CHECK)).getByRole('button', { name: 'Continue' }));
    await user.type(screen.getByLabelText('Parcel code'), 'DEMO000001');
    await user.click(screen.getByRole('button', { name: 'Open invoice' }));
    await waitFor(() => expect(router.state.location.search).toBe('?parcelCode=DEMO000001'));
  });

  it('shows the configured support e-mail and phone as links beside a "Please contact" reason', async () => {
    invoiceApi(() => errorResponse(401));
    const { user } = renderInvoice('/invoice?parcelCode=DEMO000001', {
      config: { support: { email: 'it@example.com', phone: '+44 20 7946 0000' } },
    });
    await user.click(within(await expectErrorModal(NOT_AUTHORIZED)).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('link', { name: 'it@example.com' })).toHaveAttribute(
      'href',
      'mailto:it@example.com',
    );
    expect(screen.getByRole('link', { name: '+44 20 7946 0000' })).toHaveAttribute('href', 'tel:+442079460000');
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();
  });

  it('names the screen and the parcel code in the tab title', async () => {
    invoiceApi();
    renderInvoice('/invoice?parcelCode=DEMO000001');
    await screen.findByTitle('DEMO000001');
    expect(document.title).toBe('Invoice DEMO000001 · Parcel Invoice Portal');
  });
});

describe('the invoice screen: loading, empty and loaded', () => {
  it('shows a spinner padded at the top inside the frame-sized box while loading', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    invoiceApi(async () => {
      await released;
      return pdfResponse();
    });
    renderInvoice('/invoice?parcelCode=DEMO000001');
    const box = (await screen.findByText('Loading invoice')).closest('.invoice-frame');
    expect(box).toHaveClass('pt-5');
    release();
    expect(await screen.findByTitle('DEMO000001')).toHaveClass('invoice-frame');
    expect(screen.queryByText('Loading invoice')).not.toBeInTheDocument();
  });

  it('shows "No invoice data found." for an empty answer', async () => {
    invoiceApi(() => pdfResponse(new Uint8Array()));
    renderInvoice('/invoice?parcelCode=DEMO000001');
    expect(await screen.findByRole('alert')).toHaveTextContent('No invoice data found.');
    expect(screen.queryByTitle('DEMO000001')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print' })).toBeDisabled();
  });

  it('offers Download as <code>.pdf and Print of the frame', async () => {
    invoiceApi();
    const { user } = renderInvoice('/invoice?parcelCode=DEMO000001');
    const frame = (await screen.findByTitle('DEMO000001')) as HTMLIFrameElement;
    const download = screen.getByRole('link', { name: 'Download' });
    expect(download).toHaveAttribute('href', 'blob:test/1');
    expect(download).toHaveAttribute('download', 'DEMO000001.pdf');
    const print = vi.spyOn(frame.contentWindow!, 'print').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('reloads with a fresh token request and revokes the previous blob URL', async () => {
    invoiceApi();
    const { user, auth } = renderInvoice('/invoice?parcelCode=DEMO000001');
    await screen.findByTitle('DEMO000001');
    const tokensBefore = auth.tokenRequests.length;
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(screen.getByTitle('DEMO000001')).toHaveAttribute('src', 'blob:test/2'));
    expect(requests).toHaveLength(2);
    expect(auth.tokenRequests.length).toBeGreaterThan(tokensBefore);
    expect(revoked).toContain('blob:test/1');
  });

  it('revokes the blob URL on sign-out', async () => {
    invoiceApi();
    const { user, router } = renderInvoice('/invoice?parcelCode=DEMO000001');
    await screen.findByTitle('DEMO000001');
    expect(revoked).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(revoked).toEqual(['blob:test/1']);
  });

  it('draws the pages with Open PDF and Download where the browser has no PDF viewer', async () => {
    Object.defineProperty(navigator, 'pdfViewerEnabled', { value: false, configurable: true });
    drawPdf.mockImplementation(async (_pdf, container, { describe, onPage }) => {
      for (const page of [1, 2]) {
        const canvas = document.createElement('canvas');
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', describe(page, 2));
        container.append(canvas);
        onPage(page, 2);
      }
    });
    invoiceApi();
    renderInvoice('/invoice?parcelCode=DEMO000001');
    const pages = await screen.findByRole('region', { name: 'Invoice DEMO000001' });
    expect(
      within(pages)
        .getAllByRole('img')
        .map((page) => page.getAttribute('aria-label')),
    ).toEqual(['Invoice DEMO000001, page 1 of 2', 'Invoice DEMO000001, page 2 of 2']);
    expect(Array.from(new Uint8Array(await drawPdf.mock.calls[0]![0].arrayBuffer()))).toEqual(Array.from(PDF));
    const open = screen.getByRole('link', { name: 'Open PDF' });
    expect(open).toHaveAttribute('href', 'blob:test/1');
    expect(open).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute('download', 'DEMO000001.pdf');
    expect(screen.queryByTitle('DEMO000001')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Print' })).not.toBeInTheDocument();
    expect(screen.queryByText('Loading invoice')).not.toBeInTheDocument();
  });

  it('points to Open PDF and Download where the pages cannot be drawn', async () => {
    Object.defineProperty(navigator, 'pdfViewerEnabled', { value: false, configurable: true });
    drawPdf.mockRejectedValue(new Error('no canvas'));
    invoiceApi();
    renderInvoice('/invoice?parcelCode=DEMO000001');
    expect(await screen.findByText(/cannot show the invoice inside the page/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open PDF' })).toHaveAttribute('href', 'blob:test/1');
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute('download', 'DEMO000001.pdf');
  });
});
