/**
 * `npm run test:topology`: builds, creates a fresh database beside the one in DATABASE_URL (<name>_topology)
 * and runs e2e/topology against nginx and two compiled API instances. Needs PostgreSQL and nginx
 * (Debian: nginx-light libnginx-mod-http-brotli-static); `.ci/run` provides both.
 */
import { spawnSync } from 'node:child_process';
import { buildAll, REPO_ROOT, requireNginx } from '@portal/dev-stack';
import { freshDatabaseBeside } from './lib/fresh-database.ts';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write(
    'test:topology needs DATABASE_URL (PostgreSQL; its role must be allowed to create databases).\n' +
      'Example: DATABASE_URL=postgres://portal_ci:portal_ci@127.0.0.1:5432/portal_ci npm run test:topology\n',
  );
  process.exit(1);
}
requireNginx();

// Every run from an empty database: the instances also prove they can migrate it while starting together.
const topologyDatabaseUrl = await freshDatabaseBeside(databaseUrl, 'topology');

if (!process.env.TOPOLOGY_SKIP_BUILD) buildAll();
// Files to run may be named on the command line (e2e/topology/...); by default the topology suite.
const files = process.argv.slice(2);
if (files.length === 0) files.push('e2e/topology/topology.test.ts', 'e2e/topology/shared-rate-limit.test.ts');
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
  env: { ...process.env, TOPOLOGY_DATABASE_URL: topologyDatabaseUrl },
});
process.exit(result.status ?? 1);
