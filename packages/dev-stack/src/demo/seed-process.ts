/**
 * The demo seed as a process of its own, started by stack.ts: it opens the embedded database (creating it),
 * writes the demo data and closes it again, apart from the caller's process, so what the caller does meanwhile
 * (the emulator's start, the builds) is not held up by the seed. The invoices are written first; the accounts
 * once the caller says the Auth emulator is ready (the message "emulator ready"). Sends what it seeded
 * (DemoSeed) back.
 *
 * `--then-serve` (npm start, the API from its sources): then the API starts in this same process, as
 * apps/api/src/server.ts would start it: the API's modules and the database's WebAssembly, which the seed has
 * loaded already, are not loaded a second time (decision 0127). Without it, the process exits once it is done.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../paths.ts';

const serve = process.argv.includes('--then-serve');
const apiModule = (file: string) => pathToFileURL(path.join(REPO_ROOT, 'apps/api/src', file)).href;

let seeded = false;
// The caller gone (its IPC channel closed) before the seed is done: nobody waits for it.
process.on('disconnect', () => {
  if (!seeded) process.exit(1);
});
const emulatorReady = new Promise<void>((resolve) =>
  process.on('message', (message) => {
    if (message === 'emulator ready') resolve();
  }),
);

// As server.ts: the tracing SDK, when asked for, starts before the modules it instruments are loaded.
if (serve) {
  const { tracingRequested } = (await import(apiModule('observability/tracing-switch.ts'))) as {
    tracingRequested(env: NodeJS.ProcessEnv): boolean;
  };
  if (tracingRequested(process.env)) {
    const { startTracing } = (await import(apiModule('observability/tracing.ts'))) as {
      startTracing(): Promise<unknown>;
    };
    await startTracing();
  }
}

const { seedDemoDataFromEnv } = await import('./seed.ts');
// The seed's calls meet an emulator still starting beside a build: a slow answer is not an outage here.
const seed = await seedDemoDataFromEnv(
  { ...process.env, IDENTITY_TIMEOUT_MS: process.env.IDENTITY_TIMEOUT_MS ?? '30000' },
  emulatorReady,
);
seeded = true;
await new Promise<void>((resolve) => process.send?.({ seed }, () => resolve()) ?? resolve());
process.disconnect?.();
if (serve) await import(apiModule('main.ts'));
