// Installs firebase-tools into its own folder without optional dependencies: its optional `re2`
// compiles from source for minutes when offline, and the auth emulator never needs it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// firebase-tools is a development tool: a production install (`npm ci --omit=dev`) leaves it out.
const omitted = (process.env.npm_config_omit ?? '').split(/[\s,]+/);
if (omitted.includes('dev') || process.env.NODE_ENV === 'production') process.exit(0);

const dir = fileURLToPath(new URL('../tools/firebase-emulator/', import.meta.url));
if (existsSync(`${dir}node_modules/firebase-tools/package.json`) && !process.env.CI) process.exit(0);
const command = existsSync(`${dir}package-lock.json`) ? 'ci' : 'install';
const result = spawnSync('npm', [command, '--omit=optional', '--no-audit', '--no-fund', '--loglevel=error'], {
  cwd: dir,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
