import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildWeb, findFreePort, startSentryReceiver, startStack } from '@portal/dev-stack';

/** Lookups without a token allowed per minute in e2e: enough for every spec, few enough to test the limit. */
export const E2E_LOOKUP_LIMIT = 30;

/** Starts the stack the way `npm start` does, on free ports with a throwaway data folder. */
export default async function globalSetup() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-e2e-'));
  if (!process.env.E2E_SKIP_BUILD) await buildWeb();
  const sentry = await startSentryReceiver();
  const apiLog: string[] = [];
  const stack = await startStack({
    port: await findFreePort(),
    emulatorPort: await findFreePort(),
    dataDir,
    env: { SENTRY_DSN: sentry.dsn, RATE_LIMIT_LOOKUPS_PER_MINUTE: String(E2E_LOOKUP_LIMIT), LOG_LEVEL: 'warn' },
    log: (line) => apiLog.push(line),
  });
  process.env.PORTAL_URL = stack.url;
  process.env.EMULATOR_URL = stack.emulator.url;
  process.env.EMULATOR_PROJECT_ID = stack.emulator.projectId;
  process.env.SENTRY_RECEIVER_URL = sentry.url;

  return async () => {
    await stack.stop();
    await sentry.close();
    if (process.env.E2E_SHOW_API_LOG) process.stdout.write(`${apiLog.join('\n')}\n`);
    await rm(dataDir, { recursive: true, force: true });
  };
}
