/**
 * `npm run openapi -- <file>`: writes the API's OpenAPI description, generated from the routes' zod schemas,
 * without a running server, identity provider or database (PGlite in memory); `npm run lint:openapi` lints it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '@portal/api/app.ts';
import { loadConfig } from '@portal/api/config.ts';
import { buildDomain } from '@portal/api/domain.ts';
import { openInfrastructure } from '@portal/api/infrastructure.ts';
import { createLogger } from '@portal/api/observability/logging.ts';

const target = process.argv[2];
if (!target) throw new Error('Usage: npm run openapi -- <file.json>');

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-openapi-'));
const config = loadConfig({
  FIREBASE_PROJECT_ID: 'demo-openapi',
  // Never contacted: describing the routes calls nothing.
  FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
});
const infrastructure = await openInfrastructure(config, { databaseTarget: { kind: 'pglite' } });
const log = createLogger(config);
const domain = buildDomain(infrastructure, { log });
try {
  const app = await createApp(domain, log);
  await app.ready();
  await mkdir(path.dirname(path.resolve(target)), { recursive: true });
  await writeFile(target, `${JSON.stringify(app.swagger(), null, 2)}\n`);
  await app.close();
} finally {
  await domain.close();
  await infrastructure.close();
  await rm(dataDir, { recursive: true, force: true });
}
