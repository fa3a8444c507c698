export { findFreePort, startAuthEmulator, type AuthEmulator, type StartAuthEmulatorOptions } from './auth-emulator.ts';
export { CHROMIUM_ARGS, chromiumExecutable } from './chromium.ts';
export { stopChild, waitForHttp } from './child-process.ts';
export { NODE_COMPILE_CACHE } from './paths.ts';
export { DEMO_ACCOUNTS, DEMO_PARCEL_CODES, demoAccount, type DemoAccount } from './demo/accounts.ts';
export {
  identityToolkit,
  toolkitErrorCode,
  type IdentityToolkit,
  type SignedIn,
  type ToolkitResponse,
} from './identity-toolkit.ts';
export { DEMO_PROJECT_ID, REPO_ROOT, startStack, type Stack, type StackOptions } from './stack.ts';
export {
  apiBundledPackageDirs,
  buildApi,
  buildWeb,
  bundledPackageDirs,
  compileApi,
  webBundledPackageDirs,
} from './builds.ts';
export { buildIfChanged, hashInputs, type BuildOutcome } from './input-hash.ts';
export { fillTemplate, locateProgram, nginxProblem, renderPortalSite, requireNginx, startNginx } from './nginx.ts';
export {
  checkTestDatabase,
  describeDatabaseUrl,
  LOCAL_TEST_DATABASE_URL,
  requireTestDatabase,
  SETUP_COMMAND,
  testDatabaseUrl,
} from './test-database.ts';
export {
  blockedOnTheWay,
  copyForOtherUsers,
  NginxCannotReadError,
  nginxWorkerAccount,
  requireNginxCanRead,
} from './nginx-access.ts';
export {
  buildAll,
  requireNginxCanReadTopology,
  startTopology,
  type ApiInstance,
  type Topology,
  type TopologyOptions,
} from './topology.ts';
export { startSentryReceiver, type ReceivedEvent } from './sentry-receiver.ts';
export { startObjectStore, type ObjectStore, type StartObjectStoreOptions } from './object-store.ts';
export { freshDatabaseBeside } from './fresh-database.ts';
export { startMailCatcher, type CaughtMail, type MailCatcher, type StartMailCatcherOptions } from './mail-catcher.ts';
