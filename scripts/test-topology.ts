/**
 * `npm run test:topology`: builds, then runs each file of e2e/topology against nginx and two compiled API
 * instances, each on a fresh database beside the test database (<name>_topology_<n>). Needs PostgreSQL and nginx
 * (Debian: nginx-light libnginx-mod-http-brotli-static); `scripts/setup-machine.sh` provides both.
 */
import { spawnSync } from 'node:child_process';
import {
  buildAll,
  freshDatabaseBeside,
  REPO_ROOT,
  requireNginx,
  requireTestDatabase,
  testDatabaseUrl,
} from '@portal/dev-stack';

// DATABASE_URL, else the local test database of scripts/setup-machine.sh; its role must create databases.
const databaseUrl = testDatabaseUrl();
await requireTestDatabase(databaseUrl);
requireNginx();

if (!process.env.TOPOLOGY_SKIP_BUILD) buildAll();
// Files to run may be named on the command line (e2e/topology/...); by default the topology suite.
const files = process.argv.slice(2);
if (files.length === 0) {
  files.push(
    'e2e/topology/topology.test.ts',
    'e2e/topology/shared-rate-limit.test.ts',
    'e2e/topology/object-store.test.ts',
  );
}

// Each file starts its own topology (own emulator, own invoice store) on an empty database of its own: a
// database left by another file would name accounts and files that topology does not have. Starting from
// empty also proves the instances can migrate it while starting together.
// In CI a failed file runs once more on a fresh database and is named as flaky when it then passes, as the
// API and browser suites do (decision 0050); one that fails twice fails the run.
const attempts = process.env.CI === 'true' ? 2 : 1;
const flaky: string[] = [];
let failed = false;
for (const [index, file] of files.entries()) {
  let passed = false;
  for (let attempt = 1; attempt <= attempts && !passed; attempt++) {
    const topologyDatabaseUrl = await freshDatabaseBeside(databaseUrl, `topology_${index + 1}`);
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', file], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, TOPOLOGY_DATABASE_URL: topologyDatabaseUrl },
    });
    passed = result.status === 0;
    if (!passed && attempt < attempts) process.stdout.write(`# ${file}: failed; running it once more\n`);
    if (passed && attempt > 1) flaky.push(file);
  }
  failed ||= !passed;
}
for (const file of flaky) process.stdout.write(`# FLAKY (failed, then passed): ${file}; its first run is above\n`);
process.exit(failed ? 1 : 0);
