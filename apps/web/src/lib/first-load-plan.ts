// With its extension: the build's configuration loads this file, and Vite's own loader wants one.
import { paths } from './paths.ts';

/**
 * What a page loads first, said once. Four readers used to write it each in their own words, keyed on file
 * names: the build's chunking (vite.config.ts), the build step that writes the signed-in preload into the page
 * (build/signed-in-preload.ts), that plain script itself (public/signed-in-preload.js, which cannot import:
 * the build writes this plan into its tag), and the app's boot (the router's `preloadSignedInPage`, the deferred
 * auth client's `mayBeSignedIn`). A renamed or moved module named here stops the build (a chunk it cannot find)
 * and fails the router's test (a loader that loads another file), instead of quietly changing what a page loads.
 *
 * Module paths are relative to apps/web, as the build and Vite's manifest name them. This file imports
 * nothing but `paths`: the build's configuration reads it in Node.
 */

/**
 * Firebase Auth keeps a signed-in user in localStorage under `firebase:authUser:<apiKey>:[DEFAULT]`
 * (`browserLocalPersistence`, lib/firebase.ts). Without such an entry Firebase starts signed out, so the login
 * page paints without its SDK; with one, a signed-in page's code is asked for before anything else.
 */
export const STORED_USER_KEY_PREFIX = 'firebase:authUser:';

/** The routes a mailed invoice link opens: the invoice screen. */
export const INVOICE_PATHS: readonly string[] = [paths.root, paths.invoice];

/**
 * What a signed-in invoice link draws with, beside the entry's own imports: the identity provider's SDK, the
 * screen, the query layer every private screen reads through, and the header's admin link. The router holds
 * one loader for each name (a name without a loader does not type-check).
 */
export const SIGNED_IN_INVOICE_MODULES = {
  authSdk: 'src/lib/firebase.ts',
  invoiceScreen: 'src/features/invoice/components/InvoiceScreen.tsx',
  queryLayer: 'src/lib/query-provider.tsx',
  adminLink: 'src/app/layout/AdminLink.tsx',
} as const;

export type SignedInInvoiceModule = keyof typeof SIGNED_IN_INVOICE_MODULES;

/**
 * The `framework` chunk: what every page starts with, in one file (one request instead of half a dozen) — the
 * libraries, and the small app modules that the lazily loaded screens share with the first page.
 */
export const FRAMEWORK = {
  packages: ['react', 'react-dom', 'scheduler'],
  modules: [
    'src/lib/api-client.tsx',
    'src/lib/account.ts',
    'src/lib/error-reporting.ts',
    'src/lib/first-interaction.ts',
    'src/lib/auth.tsx',
    'src/lib/storage.ts',
    'src/lib/runtime-config.tsx',
    'src/lib/paths.ts',
    'src/lib/router.tsx',
    'src/lib/query-boundary.tsx',
    'src/lib/query-client-slot.tsx',
    'src/hooks/use-page-title.ts',
    'src/components/PageSpinner.tsx',
    'src/components/CenteredMessage.tsx',
  ],
} as const;

export const isInvoicePath = (pathname: string) => INVOICE_PATHS.includes(pathname);
