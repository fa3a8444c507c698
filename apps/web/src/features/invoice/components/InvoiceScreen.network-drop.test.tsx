import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup, plainPdfFacts } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import type * as DrawPdf from '../pdf/draw-pdf';

// PDF.js needs a real canvas and a worker, which jsdom lacks: the drawing is an edge here (e2e draws for real).
const { drawPdf } = vi.hoisted(() => ({ drawPdf: vi.fn<typeof DrawPdf.drawPdf>() }));
vi.mock('../pdf/draw-pdf', () => ({ drawPdf }));

const APPLICATION_ERROR = 'Application error. Please contact the UK IT team.';

/**
 * The network drops once the invoice screen has painted: the error modal's code, asked for after that paint,
 * cannot be downloaded, and the invoice request then fails with no response — the spec's "Application error".
 * The app's modules are imported afresh (after `vi.resetModules`), so the modal's code has not arrived already
 * for another test in this worker; its import fails as a browser's would.
 */
describe('the invoice screen when the network drops after its first paint', () => {
  let dialogImports: number;

  beforeEach(() => {
    dialogImports = 0;
    vi.resetModules();
    vi.doMock('@/components/BootstrapErrorModal', () => {
      dialogImports++;
      throw new TypeError('Failed to fetch dynamically imported module: /assets/BootstrapErrorModal.js');
    });
  });

  afterEach(() => {
    vi.doUnmock('@/components/BootstrapErrorModal');
    vi.resetModules();
  });

  it('still shows the Error modal with the message and Continue, not the fallback screen', async () => {
    let dropNetwork!: () => void;
    const dropped = new Promise<void>((resolve) => (dropNetwork = resolve));
    server.use(
      accountLookup({ 'user@example.com': {} }),
      plainPdfFacts,
      http.get(`${API}/invoice`, async () => {
        await dropped;
        return HttpResponse.error();
      }),
    );
    // Without render-app.tsx's warm-up, which would load the modal's code before the screen asks for it.
    const { renderApp } = await import('@/testing/render-app-cold');
    const { user } = renderApp('/invoice?parcelCode=DEMO000001', {
      auth: createFakeAuthClient({
        accounts: { 'user@example.com': { uid: 'uid-user', password: 'user-pass' } },
        signedInAs: 'user@example.com',
      }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoice DEMO000001' })).toBeInTheDocument();
    // The screen painted and asked for the modal's code, which did not come.
    await waitFor(() => expect(dialogImports).toBeGreaterThan(0));
    dropNetwork();

    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText(APPLICATION_ERROR, { exact: true })).toBeInTheDocument();
    expect(screen.queryByText('Oops! Something went wrong.')).not.toBeInTheDocument();
    // Asked for once more when it was needed, before the stand-in took its place.
    expect(dialogImports).toBeGreaterThan(1);

    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('dialog', { name: 'Error' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Invoice DEMO000001' })).toBeInTheDocument();
  });
});
