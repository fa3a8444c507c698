/**
 * deploy/compose.yaml (and compose.tls.yaml) with the example settings: dclint (the Compose Specification's
 * schema and its rules), the start order (database healthy → migrate succeeded → instances healthy →
 * proxy), restart policies and health checks, and the instances' configuration — .env.example as
 * portal.env plus the file's own settings — accepted by the server's own configuration check.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '@portal/api/config.ts';
import { REPO_ROOT } from '@portal/dev-stack';
import { DEPLOY_DIR, lintCompose, readCompose, readEnvFile } from '../compose.ts';
import { packageVersion } from '../release.ts';
import { envExampleNames, type Check } from './check.ts';

export async function composeChecks(check: Check) {
  const files = ['compose.yaml', 'compose.tls.yaml'].map((file) => path.join(DEPLOY_DIR, file));
  const values = readEnvFile(path.join(DEPLOY_DIR, 'compose.env.example'));
  const problems = await lintCompose(files, values);
  check(
    problems.length === 0,
    'compose: dclint (Compose Specification schema and rules) finds nothing to report',
    problems,
  );

  const { services } = readCompose(files[0]!, values);
  const { postgres, migrate, api, proxy } = services;
  check(!!(postgres && migrate && api && proxy), 'compose: postgres, migrate, api and proxy services');
  check(
    migrate?.command?.join(' ') === 'apps/api/dist/cli.js migrate' &&
      migrate?.depends_on?.postgres?.condition === 'service_healthy',
    "compose: migrate runs the CLI's migrate once PostgreSQL is healthy",
  );
  check(
    api?.depends_on?.migrate?.condition === 'service_completed_successfully' &&
      proxy?.depends_on?.api?.condition === 'service_healthy',
    'compose: the instances start only after migrate succeeded, the proxy once they are healthy',
  );
  check(
    String(api?.deploy?.replicas) === values.API_INSTANCES &&
      String(api?.environment?.INSTANCES) === values.API_INSTANCES,
    `compose: API_INSTANCES (${values.API_INSTANCES}) instances, and they know it (INSTANCES)`,
  );
  check(
    ['postgres', 'api', 'proxy'].every((name) => services[name]?.restart === 'unless-stopped') &&
      migrate?.restart === 'no',
    'compose: long-running services restart unless stopped; migrate is not restarted',
  );
  check(
    postgres?.healthcheck?.test?.includes('pg_isready') === true &&
      api?.healthcheck?.test?.some((part) => part.includes('/api/readyz')) === true,
    'compose: health checks for PostgreSQL (pg_isready) and the instances (/api/readyz)',
  );
  check(
    [migrate, api, proxy].every((service) => service?.read_only === true && service?.cap_drop?.includes('ALL')),
    "compose: the portal's containers run with a read-only root file system and no capabilities",
  );
  check(
    values.PORTAL_TAG === packageVersion(),
    `compose: compose.env.example runs this release (PORTAL_TAG ${values.PORTAL_TAG}, package.json ${packageVersion()})`,
  );

  const example = readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8');
  const names = envExampleNames(example);
  const unknown = Object.keys(api?.environment ?? {}).filter((name) => !names.includes(name));
  check(unknown.length === 0, 'compose: every setting it gives the instances is one .env.example names', unknown);
  const portalEnv = Object.fromEntries(
    example.split('\n').flatMap((line) => {
      const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      return match ? [[match[1]!, match[2]!]] : [];
    }),
  );
  let configProblem = '';
  let shutdownGraceMs = Number.NaN;
  try {
    // What an operator must fill in portal.env for a real Firebase project, and the passkeys' host (required
    // in production); and POSTGRES_PASSWORD in deploy/.env (the example's is refused).
    const config = loadConfig({
      ...portalEnv,
      FIREBASE_PROJECT_ID: 'your-firebase-project',
      FIREBASE_API_KEY: 'web-api-key',
      WEBAUTHN_RP_ID: 'portal.example.com',
      WEBAUTHN_ORIGINS: 'https://portal.example.com',
      ...api?.environment,
      DATABASE_URL: 'postgres://portal:a-password-of-your-own@postgres:5432/portal',
    });
    shutdownGraceMs = config.shutdownGraceMs;
  } catch (error) {
    configProblem = (error as Error).message;
  }
  check(
    configProblem === '',
    "compose: .env.example as portal.env plus the file's settings pass the server's configuration check",
    [configProblem].filter(Boolean),
  );
  check(
    parseSeconds(api?.stop_grace_period) >= shutdownGraceMs / 1000 + 15,
    `compose: stop_grace_period (${api?.stop_grace_period}) covers SHUTDOWN_GRACE_MS (${shutdownGraceMs} ms) and the server's last 15 s`,
  );
}

function parseSeconds(duration: string | undefined): number {
  const match = /^(\d+)(s|m)$/.exec(duration ?? '');
  return match ? Number(match[1]) * (match[2] === 'm' ? 60 : 1) : 0;
}
