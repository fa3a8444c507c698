/**
 * `npm run test:topology`: builds, creates a fresh database beside the one in DATABASE_URL (<name>_topology)
 * and runs e2e/topology against nginx and two compiled API instances. Needs PostgreSQL and nginx
 * (Debian: nginx-light libnginx-mod-http-brotli-static); `.ci/run` provides both.
 */
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { buildAll, REPO_ROOT, requireNginx } from '@portal/dev-stack';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write(
    'test:topology needs DATABASE_URL (PostgreSQL; its role must be allowed to create databases).\n' +
      'Example: DATABASE_URL=postgres://portal_ci:portal_ci@127.0.0.1:5432/portal_ci npm run test:topology\n',
  );
  process.exit(1);
}
requireNginx();

const url = new URL(databaseUrl);
const database = `${url.pathname.slice(1)}_topology`;
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
// Every run from an empty database: the instances also prove they can migrate it while starting together.
await admin.query(`drop database if exists ${pg.escapeIdentifier(database)} with (force)`);
await admin.query(`create database ${pg.escapeIdentifier(database)}`);
await admin.end();
url.pathname = `/${database}`;

if (!process.env.TOPOLOGY_SKIP_BUILD) buildAll();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', 'e2e/topology/topology.test.ts'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
  env: { ...process.env, TOPOLOGY_DATABASE_URL: url.toString() },
});
process.exit(result.status ?? 1);
