// The Auth emulator on its own: firebase-tools' AuthEmulator started directly, without the `firebase` command
// line. `firebase emulators:start --only auth` loads every command of the CLI, the emulator hub and the logging
// emulator, and checks the project and the configuration, which took about three times the CPU of the Auth
// emulator itself (decision 0127). The emulator is the same code: the same API description, validation and
// behaviour. Its accounts are imported here from a folder in firebase-tools' export layout (what
// auth-emulator.ts writes on stop), before the line that says it is ready.
//
// Usage: node --require ./emulator-lazy-validation.cjs auth-emulator-process.cjs <host> <port> <project> [import dir]
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const [host, port, projectId, importDir] = process.argv.slice(2);
const toolsDir = path.join(__dirname, '../../../tools/firebase-emulator');
const firebaseTools = path.dirname(require.resolve('firebase-tools/package.json', { paths: [toolsDir] }));
const { AuthEmulator, SingleProjectMode } = require(path.join(firebaseTools, 'lib/emulator/auth/index.js'));
const { EmulatorRegistry } = require(path.join(firebaseTools, 'lib/emulator/registry.js'));

/** What firebase-tools prints once every emulator has started and imported its data (auth-emulator.ts waits for it). */
const ALL_STARTED_LINE = 'All emulators ready';

async function main() {
  // As `emulators:start` in single-project mode: calls for another project are answered with a warning.
  const emulator = new AuthEmulator({
    host,
    port: Number(port),
    projectId,
    singleProjectMode: SingleProjectMode.WARNING,
  });
  // Registered, as the CLI does: the emulator builds its own links (password reset, sign-in pages) from it.
  await EmulatorRegistry.start(emulator);
  process.stdout.write(`auth emulator listening on ${host}:${port}\n`);
  const metadataFile = importDir && path.join(importDir, 'firebase-export-metadata.json');
  if (metadataFile && fs.existsSync(metadataFile)) {
    const metadata = JSON.parse(fs.readFileSync(metadataFile, 'utf8'));
    if (metadata.auth?.path) {
      await emulator.importData(path.join(importDir, metadata.auth.path), projectId, { initiatedBy: 'start' });
      process.stdout.write(`imported the accounts in ${importDir}\n`);
    }
  }
  process.stdout.write(`${ALL_STARTED_LINE}\n`);
  const stop = () => void emulator.stop().finally(() => process.exit(0));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
}

main().catch((error) => {
  process.stderr.write(`auth emulator: ${error && error.stack ? error.stack : String(error)}\n`);
  process.exit(1);
});
