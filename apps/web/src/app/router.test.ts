import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SIGNED_IN_INVOICE_MODULES, type SignedInInvoiceModule } from '@/lib/first-load-plan';
import { signedInInvoiceLoaders } from './router';

// Read from disk: the test environment's URL is the browser's, which Node's path does not take.
const WEB_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the first-load plan and the router', () => {
  it.each(Object.keys(SIGNED_IN_INVOICE_MODULES) as SignedInInvoiceModule[])(
    'preloads, as %s, the very module the plan names (and the build writes into the page)',
    async (name) => {
      const named = await import(/* @vite-ignore */ path.join(WEB_ROOT, SIGNED_IN_INVOICE_MODULES[name]));
      expect(await signedInInvoiceLoaders[name]()).toBe(named);
    },
  );
});
