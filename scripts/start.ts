/**
 * `npm start`: the SPA built when its sources changed (its compressed twins written after the URL answers),
 * the Auth emulator, the demo data when the data folder lacks it, and the API from its sources on Node's own
 * type stripping (no build: decision 0127) on http://localhost:8080 with its data under .data/, started while
 * the SPA builds; prints the URL, the demo accounts and one line of when each step finished; Ctrl-C stops
 * everything.
 * `npm start -- --verbose` also prints each step as it finishes.
 */
import path from 'node:path';
// The stack's own module, not the package's index: that brings Playwright, pg and more, seconds of
// loading on a busy machine that `npm start` does not use.
import { DEMO_ACCOUNTS, DEMO_PARCEL_CODES } from '@portal/dev-stack/demo/accounts';
import { startMailCatcher } from '@portal/dev-stack/mail-catcher';
import { REPO_ROOT, startStack } from '@portal/dev-stack/stack';

const port = Number(process.env.PORT ?? 8080);
const emulatorPort = Number(process.env.AUTH_EMULATOR_PORT ?? 9099);
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(REPO_ROOT, '.data'));
const verbose = process.argv.includes('--verbose');
// The demo's SCIM token, so a directory's calls can be tried with curl (docs/product/scim.md); a real
// deployment makes its own (openssl rand -hex 32).
const scimToken = process.env.SCIM_TOKEN ?? 'demo-scim-token-for-npm-start-only-0123456789';
// Single sign-on in the demo: the emulator plays the company's sign-in page for any oidc.* provider.
// SSO_PROVIDER_ID= (empty) turns it off.
const ssoProvider = process.env.SSO_PROVIDER_ID ?? 'oidc.demo-company';
const ssoLabel = ssoProvider ? (process.env.SSO_BUTTON_LABEL ?? 'Demo Company') : '';
// The demo company's domain: a company sign-in of any other address is refused, as in production.
const ssoDomains = ssoProvider ? (process.env.SSO_ALLOWED_DOMAINS ?? 'example.com') : '';
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
// What a start spent where, printed in one line once the portal answers (docs/benchmarks.md: bench:start).
const loadedAtMs = performance.now();
const steps: string[] = [`loaded ${seconds(loadedAtMs)}`];

// The demo's mail relay, as the emulator is its identity provider: it keeps the "invoice arrived" mail for
// people to read. An SMTP_URL of the caller's own (a real relay) is used instead.
const mailCatcherPorts = {
  smtpPort: Number(process.env.MAIL_CATCHER_SMTP_PORT ?? 1025),
  httpPort: Number(process.env.MAIL_CATCHER_PORT ?? 1080),
};
// Taken ports (a second checkout's npm start) are no reason to fail: any free ones, printed below, do as well.
const mailCatcher = process.env.SMTP_URL
  ? undefined
  : await startMailCatcher(mailCatcherPorts).catch(() => startMailCatcher());

const stack = await startStack({
  port,
  emulatorPort,
  dataDir,
  persistAccounts: true,
  api: 'native',
  buildWeb: 'precompress-later',
  seed: 'when-missing',
  onStep: (step, ms, detail) => {
    steps.push(`${step} ${seconds(ms)}${detail ? ` (${detail})` : ''}`);
    if (verbose)
      process.stdout.write(`  ${step.padEnd(14)} done at ${seconds(ms).padStart(7)}${detail ? `  (${detail})` : ''}\n`);
  },
  onApiExit: (code) => {
    process.stderr.write(`\n  The API stopped unexpectedly (exit code ${code}); stopping the emulator too.\n`);
    void stop(1);
  },
  log: (line) => process.stdout.write(`${line}\n`),
  // Ctrl-C on a laptop: no load balancer to drain for.
  env: {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    SHUTDOWN_GRACE_MS: process.env.SHUTDOWN_GRACE_MS ?? '0',
    SCIM_TOKEN: scimToken,
    ...(mailCatcher ? { SMTP_URL: mailCatcher.smtpUrl, MAIL_FROM: 'Parcel Invoice Portal <portal@localhost>' } : {}),
    SSO_PROVIDER_ID: ssoProvider,
    SSO_BUTTON_LABEL: ssoLabel,
    SSO_ALLOWED_DOMAINS: ssoDomains,
  },
}).catch((error: unknown) => {
  // What failed says what to do (a port in use, a build error above); its stack trace would not.
  process.stderr.write(`\n  npm start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
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

// The demo admin's first passkey needs a one-time code, as every administrator's does (printed until used).
const enrollment = stack.demoAdminEnrollment;
const financeCode = stack.demoFinanceEnrollment;
const adminEnrollment =
  (enrollment
    ? `    Enrollment code for the demo admin's first passkey: ${enrollment.code}  (once; until ${enrollment.expiresAt})\n`
    : '') +
  (financeCode
    ? `    Enrollment code for the demo finance user's first passkey: ${financeCode.code}  (once; until ${financeCode.expiresAt})\n`
    : '');

const sso = ssoProvider
  ? `  Single sign-on: "Sign in with ${ssoLabel}" (${ssoProvider}); the emulator's page stands in for the company's:
    "Add new account" with an address on the list (e.g. invited@example.com). Firebase then takes the address's
    account over for the company sign-in: its password stops working (rm -rf .data brings it back).

`
  : '';

process.stdout.write(`
  Parcel Invoice Portal is running at ${stack.url}  (ready in ${seconds(performance.now())})
  Start-up: ${steps.join(', ')}  (each done at, since the start)

  Demo accounts (Auth emulator ${stack.emulator.url}, project ${stack.emulator.projectId}):
${accounts}
${adminEnrollment}
${sso}  Demo invoices: ${stack.url}/invoice?parcelCode=${DEMO_PARCEL_CODES[0]}  (also ${DEMO_PARCEL_CODES.slice(1).join(', ')})
  SCIM provisioning (what Entra ID or Okta would call), token ${scimToken}:
    curl -H 'Authorization: Bearer ${scimToken}' '${stack.url}/scim/v2/Users?filter=userName%20eq%20%22user@example.com%22'
${mailCatcher ? `  Mail the portal sent ("Tell me when it arrives"): ${mailCatcher.url}\n` : ''}  Data folder: ${dataDir}
  Press Ctrl-C to stop.
`);

let stopping = false;
async function stop(exitCode = 0) {
  if (stopping) return;
  stopping = true;
  process.stdout.write('\n  Stopping...\n');
  try {
    await stack.stop();
    await mailCatcher?.close();
  } catch (error) {
    // The emulator could not save its accounts: say so in one line, not as a crash.
    process.stderr.write(`  ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  process.exit(exitCode);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
