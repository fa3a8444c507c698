import path from 'node:path';
import type { Plugin } from 'vite';
import { FRAMEWORK } from '../src/lib/first-load-plan.ts';

export const FRAMEWORK_CHUNK = 'framework';

const FRAMEWORK_PACKAGE = new RegExp(`[\\\\/]node_modules[\\\\/](${FRAMEWORK.packages.join('|')})[\\\\/]`);

/** Whether the module `id` (an absolute file path) goes into the framework chunk, as the first-load plan says. */
export function inFrameworkChunk(root: string, id: string): boolean {
  if (FRAMEWORK_PACKAGE.test(id)) return true;
  const relative = path.relative(root, id).split(path.sep).join('/');
  return (FRAMEWORK.modules as readonly string[]).includes(relative);
}

/**
 * Stops the build when an app module the plan puts in the framework chunk is not in it: renamed, moved, or no
 * longer imported by the page. Its code would otherwise move to some lazily loaded chunk without a word, and
 * the first page's requests with it.
 */
export function frameworkChunkCheck(): Plugin {
  let root = '';
  return {
    name: 'portal-framework-chunk-check',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const framework = Object.values(bundle).find(
        (output) => output.type === 'chunk' && output.name === FRAMEWORK_CHUNK,
      );
      const inside = new Set(framework?.type === 'chunk' ? framework.moduleIds : []);
      const missing = FRAMEWORK.modules.filter((module) => !inside.has(path.join(root, module)));
      if (missing.length > 0) {
        throw new Error(
          `framework chunk: ${missing.join(', ')} not in it (named in src/lib/first-load-plan.ts; renamed or moved?)`,
        );
      }
    },
  };
}
