/**
 * `npm start`: builds the SPA, starts the Auth emulator and the API on http://localhost:8080 with demo
 * data under .data/, prints the URL and the demo accounts; Ctrl-C stops everything.
 */
import path from 'node:path';
import { buildWeb, DEMO_ACCOUNTS, DEMO_PARCEL_CODES, REPO_ROOT, startStack } from '@portal/dev-stack';

const port = Number(process.env.PORT ?? 8080);
const emulatorPort = Number(process.env.AUTH_EMULATOR_PORT ?? 9099);
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(REPO_ROOT, '.data'));
const startedAt = performance.now();

buildWeb();
const stack = await startStack({
  port,
  emulatorPort,
  dataDir,
  persistAccounts: true,
  onApiExit: (code) => {
    process.stderr.write(`\n  The API stopped unexpectedly (exit code ${code}); stopping the emulator too.\n`);
    void stop(1);
  },
  log: (line) => process.stdout.write(`${line}\n`),
  env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
});

const accounts = DEMO_ACCOUNTS.map((account) => {
  const password = account.password ?? '(no password yet: use "Forgot Password")';
  const role = !account.allowlisted
    ? 'not on the allowlist'
    : account.admin
      ? 'admin'
      : account.activated
        ? 'user'
        : 'user, invited (not activated)';
  return `    ${account.email.padEnd(22)} ${password.padEnd(42)} ${role}`;
}).join('\n');

process.stdout.write(`
  Parcel Invoice Portal is running at ${stack.url}  (ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s)

  Demo accounts (Auth emulator ${stack.emulator.url}, project ${stack.emulator.projectId}):
${accounts}

  Demo invoices: ${stack.url}/invoice?parcelCode=${DEMO_PARCEL_CODES[0]}  (also ${DEMO_PARCEL_CODES.slice(1).join(', ')})
  Data folder: ${dataDir}
  Press Ctrl-C to stop.
`);

let stopping = false;
async function stop(exitCode = 0) {
  if (stopping) return;
  stopping = true;
  process.stdout.write('\n  Stopping...\n');
  await stack.stop();
  process.exit(exitCode);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
