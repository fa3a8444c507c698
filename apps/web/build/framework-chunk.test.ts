import { FRAMEWORK } from '../src/lib/first-load-plan';
import { frameworkChunkCheck, inFrameworkChunk } from './framework-chunk';

describe('the framework chunk', () => {
  it('takes the plan’s packages and app modules, and nothing else', () => {
    expect(inFrameworkChunk('/app', '/app/node_modules/react-dom/cjs/react-dom.production.js')).toBe(true);
    expect(inFrameworkChunk('/app', '/repo/node_modules/scheduler/cjs/scheduler.production.js')).toBe(true);
    expect(inFrameworkChunk('/app', '/app/src/lib/router.tsx')).toBe(true);
    expect(inFrameworkChunk('/app', '/app/src/lib/paths.ts')).toBe(true);
    expect(inFrameworkChunk('/app', '/app/node_modules/react-bootstrap/esm/Modal.js')).toBe(false);
    expect(inFrameworkChunk('/app', '/app/src/lib/firebase.ts')).toBe(false);
    // A file whose name merely begins like one of the plan's.
    expect(inFrameworkChunk('/app', '/app/src/lib/account-query.ts')).toBe(false);
  });

  function generate(bundle: Record<string, object>) {
    const plugin = frameworkChunkCheck();
    (plugin.configResolved as (config: { root: string }) => void)({ root: '/app' });
    (plugin.generateBundle as (this: unknown, options: unknown, bundle: object) => void).call({}, {}, bundle);
  }
  const frameworkWith = (moduleIds: string[]) => ({
    'assets/framework.js': { type: 'chunk', name: 'framework', fileName: 'assets/framework.js', moduleIds },
  });

  it('lets the build go on when every app module the plan names is in it', () => {
    expect(() => generate(frameworkWith(FRAMEWORK.modules.map((module) => `/app/${module}`)))).not.toThrow();
  });

  it('stops the build when one is not (renamed, moved, or no longer imported)', () => {
    const [first, ...others] = FRAMEWORK.modules;
    expect(() => generate(frameworkWith(others.map((module) => `/app/${module}`)))).toThrow(
      `framework chunk: ${first} not in it`,
    );
  });
});
