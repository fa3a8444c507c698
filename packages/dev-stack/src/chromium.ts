import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

/** Debian's Chromium by default; Playwright's own build only when neither is configured nor installed. */
export function chromiumExecutable(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].filter((path): path is string => Boolean(path));
  const found = candidates.find((path) => existsSync(path));
  if (found) return found;
  if (existsSync(chromium.executablePath())) return undefined;
  throw new Error(
    'No Chromium found for the e2e tests. Install one with `apt-get install chromium` (Debian/Ubuntu; ' +
      '`bash scripts/setup-machine.sh` installs it with the rest), ' +
      'set CHROMIUM_PATH to a Chromium/Chrome binary, or run `npx playwright install chromium`.',
  );
}

/** Without these, Chromium keeps calling home on a closed network (used by e2e and the benchmarks). */
export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
