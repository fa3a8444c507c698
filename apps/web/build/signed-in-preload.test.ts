import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IndexHtmlTransformContext } from 'vite';
import { INVOICE_PATHS, STORED_USER_KEY_PREFIX } from '../src/lib/first-load-plan';
import { signedInPreload } from './signed-in-preload';

// Read from disk: the test environment's URL is the browser's, which Node's fs does not take.
const SCRIPT = readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../public/signed-in-preload.js'),
  'utf8',
);
const HTML = '<head>\n    <link rel="stylesheet" href="/assets/index.css">\n</head>';

function transform(bundle: Record<string, object>, entry: object) {
  const plugin = signedInPreload();
  (plugin.configResolved as (config: { root: string }) => void)({ root: '/app' });
  const hook = plugin.transformIndexHtml as {
    handler: (html: string, context: Partial<IndexHtmlTransformContext>) => string;
  };
  return hook.handler(HTML, { bundle, chunk: entry } as unknown as IndexHtmlTransformContext);
}

const chunk = (fileName: string, facadeModuleId: string | null, imports: string[] = []) => ({
  type: 'chunk',
  fileName,
  facadeModuleId,
  imports,
});

/** A bundle as the build sees it: the entry, the framework it imports, and the invoice link's chunks. */
function invoiceLinkBundle() {
  return Object.fromEntries(
    [
      chunk('assets/index.js', '/app/index.html', ['assets/framework.js']),
      chunk('assets/framework.js', null),
      chunk('assets/firebase.js', '/app/src/lib/firebase.ts'),
      chunk('assets/InvoiceScreen.js', '/app/src/features/invoice/components/InvoiceScreen.tsx', [
        'assets/framework.js',
        'assets/Spinner.js',
      ]),
      chunk('assets/Spinner.js', null, ['assets/framework.js']),
      chunk('assets/query-provider.js', '/app/src/lib/query-provider.tsx', ['assets/Spinner.js']),
      chunk('assets/AdminLink.js', '/app/src/app/layout/AdminLink.tsx'),
      chunk('assets/AdminUsersScreen.js', '/app/src/features/admin/components/AdminUsersScreen.tsx'),
    ].map((item) => [item.fileName, item]),
  );
}

describe('the signed-in preload in the built page', () => {
  it('names the invoice link’s chunks and what they import, less what the entry loads anyway', () => {
    const bundle = invoiceLinkBundle();
    const html = transform(bundle, bundle['assets/index.js']!);
    const files = /data-files="([^"]*)"/.exec(html)?.[1]?.split(' ');
    expect(files).toEqual([
      '/assets/firebase.js',
      '/assets/InvoiceScreen.js',
      '/assets/Spinner.js',
      '/assets/query-provider.js',
      '/assets/AdminLink.js',
    ]);
    // Before the stylesheet, so that its request starts with it.
    expect(html.indexOf('signed-in-preload.js')).toBeLessThan(html.indexOf('rel="stylesheet"'));
  });

  it('writes the rest of the first-load plan into the tag: the invoice paths, the stored user’s key prefix', () => {
    const html = transform(invoiceLinkBundle(), invoiceLinkBundle()['assets/index.js']!);
    expect(html).toContain(`data-invoice-paths="${INVOICE_PATHS.join(' ')}"`);
    expect(html).toContain(`data-user-key-prefix="${STORED_USER_KEY_PREFIX}"`);
  });

  it('stops the build when a chunk it should name is gone (a module renamed or moved)', () => {
    const entry = chunk('assets/index.js', '/app/index.html');
    expect(() => transform({ 'assets/index.js': entry }, entry)).toThrow('no chunk for src/lib/firebase.ts');
  });
});

describe('public/signed-in-preload.js', () => {
  afterEach(() => {
    localStorage.clear();
    document.head.querySelectorAll('link[rel="modulepreload"]').forEach((link) => link.remove());
  });

  function run(pathname: string, stylesheet: HTMLLinkElement | null = null) {
    // The tag as the build writes it, but for the files.
    const bundle = invoiceLinkBundle();
    const tag = /<script async src="\/signed-in-preload.js"[^>]*>/.exec(
      transform(bundle, bundle['assets/index.js']!),
    )![0];
    const holder = document.createElement('div');
    holder.innerHTML = `${tag}</script>`;
    const script = holder.firstElementChild as HTMLScriptElement;
    script.dataset.files = '/assets/a.js /assets/b.js';
    const page = {
      currentScript: script,
      head: document.head,
      createElement: (name: string) => document.createElement(name),
      querySelector: () => stylesheet,
    };
    new Function('document', 'location', SCRIPT)(page, { pathname });
  }
  const preloaded = () =>
    [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) =>
      link.getAttribute('href'),
    );

  it('asks for the files when someone may be signed in on an invoice link', () => {
    localStorage.setItem('firebase:authUser:key:[DEFAULT]', '{}');
    run('/invoice');
    expect(preloaded()).toEqual(['/assets/a.js', '/assets/b.js']);
  });

  it('waits for the stylesheet when it is still on its way', () => {
    localStorage.setItem('firebase:authUser:key:[DEFAULT]', '{}');
    const stylesheet = document.createElement('link');
    run('/', stylesheet);
    expect(preloaded()).toEqual([]);
    stylesheet.dispatchEvent(new Event('load'));
    expect(preloaded()).toEqual(['/assets/a.js', '/assets/b.js']);
  });

  it('asks for nothing when nobody is signed in, or on another page', () => {
    run('/invoice');
    localStorage.setItem('firebase:authUser:key:[DEFAULT]', '{}');
    run('/login');
    run('/admin');
    expect(preloaded()).toEqual([]);
  });
});
