import path from 'node:path';
import type { Plugin } from 'vite';

/** What a signed-in invoice link loads before its first paint, beside the entry's own imports. */
const SIGNED_IN_INVOICE_MODULES = [
  'src/lib/firebase.ts',
  'src/features/invoice/components/InvoiceScreen.tsx',
  'src/lib/query-provider.tsx',
  'src/app/layout/AdminLink.tsx',
];

interface BundleChunk {
  type: 'chunk' | 'asset';
  fileName: string;
  facadeModuleId?: string | null;
  imports?: string[];
}

/**
 * Puts `public/signed-in-preload.js` in the page's head with the files a signed-in invoice link needs: it
 * asks for them, when someone may be signed in, once the stylesheet is in (so the first paint does not share
 * the network with them), instead of after the framework has arrived and run.
 */
export function signedInPreload(): Plugin {
  let root = '';
  return {
    name: 'portal-signed-in-preload',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = (context.bundle ?? {}) as Record<string, BundleChunk>;
        const entry = context.chunk as BundleChunk | undefined;
        const loadedByEntry = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
        const files = new Set<string>();
        const add = (fileName: string) => {
          if (files.has(fileName) || loadedByEntry.has(fileName)) return;
          files.add(fileName);
          for (const imported of bundle[fileName]?.imports ?? []) add(imported);
        };
        for (const module of SIGNED_IN_INVOICE_MODULES) {
          const chunk = Object.values(bundle).find((candidate) => candidate.facadeModuleId === path.join(root, module));
          if (!chunk) throw new Error(`signed-in preload: no chunk for ${module}`);
          add(chunk.fileName);
        }
        const list = [...files].map((file) => `/${file}`).join(' ');
        return html.replace(
          '<link rel="stylesheet"',
          `<script async src="/signed-in-preload.js" data-files="${list}"></script>\n    <link rel="stylesheet"`,
        );
      },
    },
  };
}
