// Installs firebase-tools into its own folder without optional dependencies: its optional `re2`
// compiles from source for minutes when offline, and the auth emulator never needs it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../tools/firebase-emulator/', import.meta.url));
if (existsSync(`${dir}node_modules/firebase-tools/package.json`) && !process.env.CI) process.exit(0);
const command = existsSync(`${dir}package-lock.json`) ? 'ci' : 'install';
const result = spawnSync('npm', [command, '--omit=optional', '--no-audit', '--no-fund', '--loglevel=error'], {
  cwd: dir,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
