import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { server } from './msw-server';
import { WAIT_TIMEOUT_MS } from './time-limits';

configure({ asyncUtilTimeout: WAIT_TIMEOUT_MS });

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
