import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { server } from './msw-server';

// The one limit for a wait (findBy…, waitFor): one screen update after a fake network answer, well under a
// second on an idle machine. The slowest wait measured with both cores of a 2-core machine over-committed
// (load 17: lint, type checks and other suites beside this one) took 3.3 s; the limit is three times that.
// A test's own limit (vite.config.ts) is twice this, for a test of several steps. A wait that also spans a
// pause of the app's own adds that pause to this limit (see throughTheReload in AdminUsersScreen.test.tsx).
configure({ asyncUtilTimeout: 10_000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

// A console.error during a test is a bug the test did not look for: fail it. So is a warning (say, the
// router's about a missing fallback); a test that expects one spies on console.warn itself.
let warnings: string[] = [];
beforeEach(() => {
  warnings = [];
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error during test: ${args.map(String).join(' ')}`);
  });
});

afterEach(() => {
  const seen = warnings;
  warnings = [];
  if (seen.length > 0) throw new Error(`console.warn during test:\n${seen.join('\n')}`);
  cleanup();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
});

afterAll(() => server.close());
