import path from 'node:path';
import type { Plugin } from 'vite';
import { INVOICE_PATHS, SIGNED_IN_INVOICE_MODULES, STORED_USER_KEY_PREFIX } from '../src/lib/first-load-plan.ts';

interface BundleChunk {
  type: 'chunk' | 'asset';
  fileName: string;
  facadeModuleId?: string | null;
  imports?: string[];
}

/**
 * Puts `public/signed-in-preload.js` in the page's head with the files a signed-in invoice link needs: it
 * asks for them, when someone may be signed in, once the stylesheet is in (so the first paint does not share
 * the network with them), instead of after the framework has arrived and run. The script cannot import, so
 * the tag carries the rest of the first-load plan it reads (lib/first-load-plan.ts): the invoice paths and
 * the prefix of the identity provider's stored user, as data attributes.
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
        for (const module of Object.values(SIGNED_IN_INVOICE_MODULES)) {
          const chunk = Object.values(bundle).find((candidate) => candidate.facadeModuleId === path.join(root, module));
          if (!chunk)
            throw new Error(`signed-in preload: no chunk for ${module} (named in src/lib/first-load-plan.ts)`);
          add(chunk.fileName);
        }
        const data = {
          files: [...files].map((file) => `/${file}`).join(' '),
          'invoice-paths': INVOICE_PATHS.join(' '),
          'user-key-prefix': STORED_USER_KEY_PREFIX,
        };
        const attributes = Object.entries(data)
          .map(([name, value]) => `data-${name}="${value}"`)
          .join(' ');
        return html.replace(
          '<link rel="stylesheet"',
          `<script async src="/signed-in-preload.js" ${attributes}></script>\n    <link rel="stylesheet"`,
        );
      },
    },
  };
}
