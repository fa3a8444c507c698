import path from 'node:path';
import type { Plugin } from 'vite';

/** Where the build lists the packages its bundle carries, beside Vite's own manifest (never served as a page). */
export const THIRD_PARTY_PACKAGES_FILE = '.vite/third-party-packages.json';

/** The package folder (`…/node_modules/name` or `…/node_modules/@scope/name`) a module id lies in. */
export function packageDirOf(id: string): string | undefined {
  return /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(id.replaceAll('\\', '/'))?.[1];
}

/**
 * Lists, relative to `root`, the folders of the third-party packages whose code the build put into the
 * bundle every browser receives: NOTICE and the licence check (decision 81) read it beside the production
 * install, as the SPA's packages are development dependencies that production never installs.
 */
export function thirdPartyPackages({ root }: { root: string }): Plugin {
  return {
    name: 'portal-third-party-packages',
    apply: 'build',
    generateBundle(_options, bundle) {
      const dirs = new Set<string>();
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        for (const id of Object.keys(output.modules)) {
          const dir = packageDirOf(id);
          if (dir) dirs.add(path.relative(root, dir).replaceAll('\\', '/'));
        }
      }
      this.emitFile({
        type: 'asset',
        fileName: THIRD_PARTY_PACKAGES_FILE,
        source: `${JSON.stringify([...dirs].sort(), null, 2)}\n`,
      });
    },
  };
}
