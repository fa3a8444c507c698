/**
 * `npm run start:scaled`: the production topology on this machine — builds, starts the Auth emulator,
 * INSTANCES compiled API instances (default 2) on the PostgreSQL in DATABASE_URL, and nginx in front on PORT
 * (default 8080); prints the URL and the demo accounts. Ctrl-C stops everything.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  buildAll,
  DEMO_ACCOUNTS,
  DEMO_PARCEL_CODES,
  NginxCannotReadError,
  REPO_ROOT,
  requireNginxCanReadTopology,
  startTopology,
} from '@portal/dev-stack';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write(
    'npm run start:scaled needs DATABASE_URL (PostgreSQL): several instances cannot share the embedded database.\n' +
      'Example: DATABASE_URL=postgres://user:password@127.0.0.1:5432/portal npm run start:scaled\n',
  );
  process.exit(78);
}
const instances = Number(process.env.INSTANCES ?? 2);
if (!Number.isInteger(instances) || instances < 1) {
  process.stderr.write(`INSTANCES must be a whole number of at least 1 (got ${process.env.INSTANCES}).\n`);
  process.exit(78);
}
const port = Number(process.env.PORT ?? 8080);
// Kept between runs, like the database whose rows name its files.
const invoiceDir = path.resolve(process.env.INVOICE_DIR ?? path.join(REPO_ROOT, '.data/scaled/invoices'));

// Minutes before nginx would start: say now when its workers could not read the files they must send.
try {
  requireNginxCanReadTopology(invoiceDir);
} catch (error) {
  if (!(error instanceof NginxCannotReadError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(77);
}
buildAll();
const workDir = await mkdtemp(path.join(os.tmpdir(), 'portal-scaled-'));
let stopping = false;
const topology = await startTopology({
  port,
  instances,
  databaseUrl,
  workDir,
  invoiceDir,
  emulatorPort: Number(process.env.AUTH_EMULATOR_PORT ?? 9099),
  log: (line) => process.stdout.write(`${line}\n`),
  onInstanceExit: (index, code, signal) => {
    // nginx keeps serving from the others; say so rather than stop everything.
    process.stderr.write(
      `\n  API instance ${index + 1} stopped (${code ?? signal}); nginx sends its share to the others.\n`,
    );
  },
}).catch(async (error: unknown) => {
  await rm(workDir, { recursive: true, force: true });
  if (!(error instanceof NginxCannotReadError)) throw error;
  process.stderr.write(`\n${error.message}\n`);
  process.exit(77);
});

const accounts = DEMO_ACCOUNTS.map(
  (account) => `    ${account.email.padEnd(22)} ${account.password ?? '(no password yet: use "Forgot Password")'}`,
).join('\n');
process.stdout.write(`
  Parcel Invoice Portal (nginx + ${instances} API instances) is running at ${topology.url}
${topology.instances.map((instance, index) => `    instance ${index + 1}: ${instance.url}`).join('\n')}

  Demo accounts (Auth emulator ${topology.emulator.url}):
${accounts}

  Demo invoices: ${topology.url}/invoice?parcelCode=${DEMO_PARCEL_CODES[0]}
  Admin page: http://localhost:${new URL(topology.url).port}/admin  (passkeys need a host name, not an IP address)
  Invoice store: ${topology.invoiceDir}
  Press Ctrl-C to stop.
`);

async function stop() {
  if (stopping) return;
  stopping = true;
  process.stdout.write('\n  Stopping...\n');
  await topology.stop();
  await rm(workDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
