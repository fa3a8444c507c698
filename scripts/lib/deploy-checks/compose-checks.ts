/**
 * deploy/compose.yaml (and compose.tls.yaml) with the example settings: dclint (the Compose Specification's
 * schema and its rules), the start order (database healthy → migrate succeeded → instances healthy →
 * proxy), restart policies and health checks, and the instances' configuration — .env.example as
 * portal.env plus the file's own settings — accepted by the server's own configuration check.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '@portal/api/config.ts';
import { REPO_ROOT } from '@portal/dev-stack';
import { DEPLOY_DIR, lintCompose, readCompose, readEnvFile, type ComposeService } from '../compose.ts';
import { readDockerfile } from '../dockerfile.ts';
import { packageVersion } from '../release.ts';
import { envExampleNames, type Check } from './check.ts';

/** Image repositories that no longer serve pulls: MinIO removed minio/minio and minio/mc from Docker Hub. */
export const WITHDRAWN_IMAGES = /^(docker\.io\/)?minio\/(minio|mc)(:|@|$)/;

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
  startOrderChecks(check, services);
  monitoringChecks(check, services);
  buildChecks(check, services, values, readFileSync(files[0]!, 'utf8'));
  check(!!(postgres && migrate && api && proxy), 'compose: postgres, migrate, api and proxy services');
  const withdrawn = Object.entries(services)
    .filter(([, service]) => WITHDRAWN_IMAGES.test(service?.image ?? ''))
    .map(([name, service]) => `${name}: ${service?.image}`);
  check(
    withdrawn.length === 0,
    'compose: no image from a repository its publisher withdrew (MinIO from Docker Hub: quay.io/minio/…)',
    withdrawn,
  );
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

/**
 * The monitoring profile: Prometheus and Grafana only with `--profile monitoring`, published on the loopback
 * alone, every file they mount present in deploy/ (the configuration itself is checked by promtool in
 * `npm run test:alerts`), Prometheus given the metrics token as a secret and Grafana the dashboard.
 */
function monitoringChecks(check: Check, services: Record<string, ComposeService | undefined>) {
  const { prometheus, grafana } = services;
  check(
    [prometheus, grafana].every((service) => service?.profiles?.join() === 'monitoring'),
    'compose: Prometheus and Grafana start with the monitoring profile only',
  );
  const mounts = [...(prometheus?.volumes ?? []), ...(grafana?.volumes ?? [])]
    .map((volume) => volume.split(':')[0]!)
    .filter((source) => source.startsWith('./'));
  const missing = mounts.filter((source) => !existsSync(path.join(DEPLOY_DIR, source)));
  check(
    mounts.length >= 4 && missing.length === 0,
    'compose: every file the monitoring services mount is in deploy/',
    missing,
  );
  check(
    !!prometheus?.command?.includes('--config.file=/etc/prometheus/portal/compose/prometheus.yaml') &&
      !!prometheus.volumes?.includes('./monitoring:/etc/prometheus/portal:ro') &&
      prometheus.secrets?.some((secret) => secret.target === '/run/secrets/metrics-token.txt') === true,
    'compose: Prometheus reads deploy/monitoring/compose/prometheus.yaml with the rules beside it, and the metrics token as a secret',
  );
  check(
    !!grafana?.volumes?.includes('./monitoring/grafana-dashboard.json:/var/lib/grafana/dashboards/portal.json:ro'),
    "compose: Grafana is provisioned with the portal's dashboard",
  );
  const published = [...(prometheus?.ports ?? []), ...(grafana?.ports ?? [])];
  const exposed = published.filter((port) => !port.startsWith('127.0.0.1:'));
  check(
    published.length === 2 && exposed.length === 0,
    'compose: Prometheus and Grafana are published on the loopback only',
    exposed,
  );
}

function parseSeconds(duration: string | undefined): number {
  const match = /^(\d+)(s|m)$/.exec(duration ?? '');
  return match ? Number(match[1]) * (match[2] === 'm' ? 60 : 1) : 0;
}

/**
 * Start order and health gates as a graph, for whatever services the file has: each `depends_on` names a
 * service; no cycle; a `service_healthy` gate waits for a service with a health check; a
 * `service_completed_successfully` gate for one that ends (never restarted); every long-running service with
 * dependants is gated on its health, not only its start.
 */
function startOrderChecks(check: Check, services: Record<string, ComposeService | undefined>) {
  const problems: string[] = [];
  const names = Object.keys(services);
  for (const [name, service] of Object.entries(services)) {
    for (const [target, { condition }] of Object.entries(service?.depends_on ?? {})) {
      const dependency = services[target];
      if (!dependency) {
        problems.push(`${name} depends on ${target}, which is not a service`);
        continue;
      }
      const healthChecked = !!dependency.healthcheck?.test && dependency.healthcheck.disable !== true;
      if (condition === 'service_healthy' && !healthChecked) {
        problems.push(`${name} waits for ${target} to be healthy, but ${target} has no health check`);
      } else if (condition === 'service_completed_successfully' && dependency.restart !== 'no') {
        problems.push(`${name} waits for ${target} to complete, but ${target} restarts (${dependency.restart})`);
      } else if (condition === 'service_started' && dependency.restart !== 'no' && healthChecked) {
        problems.push(`${name} waits only for ${target} to start, though ${target} has a health check`);
      } else if (!['service_healthy', 'service_completed_successfully', 'service_started'].includes(condition)) {
        problems.push(`${name} -> ${target}: condition ${condition}`);
      }
    }
  }
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      problems.push(`cycle: ${[...path, name].join(' -> ')}`);
      return;
    }
    state.set(name, 'visiting');
    for (const target of Object.keys(services[name]?.depends_on ?? {}))
      if (services[target]) visit(target, [...path, name]);
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of names) visit(name, []);
  check(
    problems.length === 0,
    `compose: start order as a graph, no cycle, every gate fits its service (${order.join(' → ')})`,
    problems,
  );
}

/**
 * The images build from this checkout: each portal service's `build` is the repository's Dockerfile, a stage it
 * has, the release as PORTAL_VERSION (the build refuses any other); every variable compose.yaml requires
 * (`${NAME:?…}`) is in compose.env.example, and so is every one a build argument reads.
 */
function buildChecks(
  check: Check,
  services: Record<string, ComposeService | undefined>,
  values: Record<string, string>,
  text: string,
) {
  const stages = new Set(readDockerfile().map((stage) => stage.name));
  const problems: string[] = [];
  const builds = Object.entries(services).filter(([, service]) => service?.build);
  for (const [name, service] of builds) {
    const build = service!.build!;
    const context = path.resolve(DEPLOY_DIR, build.context ?? '.');
    if (context !== path.resolve(REPO_ROOT))
      problems.push(`${name}: build context ${build.context} is not the repository`);
    if (!existsSync(path.join(context, build.dockerfile ?? 'Dockerfile')))
      problems.push(`${name}: no ${build.dockerfile}`);
    if (!build.target || !stages.has(build.target)) problems.push(`${name}: no Dockerfile stage ${build.target}`);
    if (build.args?.PORTAL_VERSION !== packageVersion())
      problems.push(`${name}: PORTAL_VERSION ${build.args?.PORTAL_VERSION}`);
    if (!('PORTAL_REVISION' in (build.args ?? {}))) problems.push(`${name}: no PORTAL_REVISION argument`);
  }
  const portalImages = ['migrate', 'api', 'proxy'];
  const unbuilt = portalImages.filter((name) => !services[name]?.build);
  const required = [...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)(?::?\?|:?-)?/g)].map((match) => match[1]!);
  const undocumented = [...new Set(required)].filter((name) => !(name in values));
  check(
    problems.length === 0 && unbuilt.length === 0 && undocumented.length === 0,
    `compose: the portal's images build from this checkout (${builds.map(([name, service]) => `${name}: ${service?.build?.target}`).join(', ')}), and compose.env.example names every variable the file reads`,
    [
      ...problems,
      ...unbuilt.map((name) => `${name}: no build section`),
      ...undocumented.map((name) => `${name}: read by compose.yaml, not in compose.env.example`),
    ],
  );
}
