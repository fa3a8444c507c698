import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findFreePort } from '@portal/dev-stack';
import { currentRelease } from '../../src/release.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import { startManagementServer } from '../../src/observability/metrics-route.ts';
import { PRODUCTION_QUERY_TIMEOUT, useTestApp } from '../helpers/test-app.ts';

// Why a process of its own (.own-process): it makes the database unreachable under the app for a minute.

const METRICS_TOKEN = 'prometheus-test-metrics-token-0123456789';
const METRICS_PORT = await findFreePort();
const RULES = new URL('../../../../deploy/monitoring/alert-rules.yaml', import.meta.url);
const DASHBOARD = new URL('../../../../deploy/monitoring/grafana-dashboard.json', import.meta.url);
/** Prometheus scrapes and evaluates every second here; the shipped rules wait minutes (`for:`), this test seconds. */
const FOR_IN_TEST = '5s';
/** Scrape, a missed heartbeat (about 3 s), `for`, evaluation: on a busy machine well within this. */
const FIRES_WITHIN_MS = 90_000;

// The API reaches PostgreSQL through a proxy this test controls; the shared cluster itself is never touched.
const realUrl = new URL(process.env.DATABASE_URL ?? '');
const proxy = await startTcpProxy({ host: realUrl.hostname, port: Number(realUrl.port || 5432) });
const proxiedUrl = new URL(realUrl);
proxiedUrl.host = `127.0.0.1:${proxy.port}`;

interface PrometheusAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}

describe('a real Prometheus scraping an instance with the shipped alert rules', () => {
  const t = useTestApp({
    env: {
      DATABASE_URL: proxiedUrl.href,
      ...PRODUCTION_QUERY_TIMEOUT,
      METRICS_TOKEN,
      METRICS_PORT: String(METRICS_PORT),
      RATE_LIMIT_LOOKUPS_PER_MINUTE: '1',
    },
  });
  let prometheus: ChildProcess | undefined;
  let prometheusUrl = '';
  let workDir = '';
  let prometheusLog = '';
  /** The API's port, and the management port Prometheus scrapes (METRICS_PORT), as in the monitoring component. */
  let api = '';
  let target = '';
  let management: { close(): Promise<void> } | undefined;

  before(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    api = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    management = await startManagementServer(t.app.domain, {
      host: '127.0.0.1',
      port: METRICS_PORT,
      logger: t.app.log,
    });
    target = `127.0.0.1:${METRICS_PORT}`;
    workDir = await mkdtemp(path.join(os.tmpdir(), 'portal-prometheus-'));
    const rules = (await readFile(RULES, 'utf8')).replace(/^(\s+for:) .+$/gm, `$1 ${FOR_IN_TEST}`);
    await writeFile(path.join(workDir, 'alert-rules.yaml'), rules);
    await writeFile(
      path.join(workDir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'rule_files: [alert-rules.yaml]',
        'scrape_configs:',
        '  - job_name: portal',
        `    authorization: { credentials: ${METRICS_TOKEN} }`,
        `    static_configs: [{ targets: ['${target}'] }]`,
        '',
      ].join('\n'),
    );
    const port = await findFreePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${path.join(workDir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(workDir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { cwd: workDir, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    prometheus.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      prometheusLog = (prometheusLog + chunk).slice(-4000);
    });
    await waitFor('Prometheus to start', 60_000, async () => (await fetch(`${prometheusUrl}/-/ready`)).ok);
  });

  after(async () => {
    await management?.close();
    if (prometheus && prometheus.exitCode === null) {
      prometheus.kill('SIGTERM');
      await once(prometheus, 'exit');
    }
    await proxy.close();
    await rm(workDir, { recursive: true, force: true });
  });

  async function waitFor(what: string, withinMs: number, check: () => Promise<boolean>) {
    const deadline = Date.now() + withinMs;
    for (;;) {
      if (await check().catch(() => false)) return;
      if (Date.now() > deadline)
        assert.fail(`${what}: not within ${withinMs / 1000} s. Prometheus said:\n${prometheusLog}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  const query = async (promql: string) => {
    const answer = (await (
      await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`)
    ).json()) as {
      data: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    return answer.data.result;
  };
  const alerts = async () =>
    ((await (await fetch(`${prometheusUrl}/api/v1/alerts`)).json()) as { data: { alerts: PrometheusAlert[] } }).data
      .alerts;
  const firing = async (name: string) =>
    (await alerts()).some((alert) => alert.labels.alertname === name && alert.state === 'firing');

  it('scrapes the instance on its management port with its token, where the API port has no /metrics', async () => {
    const onApiPort = await fetch(`http://${api}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(onApiPort.status, 404);
    assert.equal((await fetch(`http://${target}/metrics`)).status, 401, 'the management port asks for the token too');
    assert.equal((await fetch(`http://${target}/api/healthz`)).status, 404, 'and serves nothing else');
  });

  it('scrapes the instance with its token and names the build; no alert fires while all is well', async () => {
    await waitFor('a successful scrape', 60_000, async () => (await query('up{job="portal"}'))[0]?.value[1] === '1');
    await waitFor('allowlist notices live', 60_000, async () => {
      const [live] = await query('portal_allowlist_notifications_live{job="portal"}');
      return live?.value[1] === '1';
    });
    const [build] = await query('portal_build_info{job="portal"}');
    assert.deepEqual(
      [build?.metric.version, build?.metric.revision],
      [currentRelease().version, currentRelease().revision],
    );
    // Long enough for any rule with a 5 s `for` to have fired on a healthy instance.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    assert.deepEqual(
      (await alerts()).filter((alert) => alert.state === 'firing').map((alert) => alert.labels.alertname),
      [],
    );
  });

  it('evaluates every query of the shipped Grafana dashboard, each on series the instance really exports', async () => {
    // Traffic of every kind a panel shows: labelled counters exist only once counted.
    for (let i = 0; i < 5; i += 1) await fetch(`http://${api}/api/healthz`);
    for (let i = 0; i < 2; i += 1) await fetch(`http://${api}/api/users/someone@example.com`);
    const { idToken } = await t.createAccount('reader@example.com');
    await fetch(`http://${api}/api/invoice?parcelCode=NOSUCH1`, { headers: t.bearer(idToken) });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const empty: string[] = [];
    for (const panel of dashboard.panels) {
      for (const target of panel.targets) {
        // As Grafana sends it with "All" chosen for the installation variables.
        const expr = target.expr.replaceAll('$namespace', '.*').replaceAll('$environment', '.*');
        const answer = (await (
          await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`)
        ).json()) as { status: string; error?: string; data?: { result: unknown[] } };
        assert.equal(answer.status, 'success', `${panel.title}: ${answer.error}`);
        // Every metric the query names must exist: a renamed metric leaves a panel silently empty.
        for (const metric of new Set(expr.match(/\b(portal|process|nodejs)_[a-z0-9_]+/g) ?? [])) {
          const series = metric.replace(/_(bucket|count|sum)$/, '');
          const known = await query(`count({__name__=~"${series}(_bucket|_count|_sum)?",job="portal"})`);
          if (known.length === 0) empty.push(`${panel.title}: ${metric}`);
        }
      }
    }
    assert.deepEqual(empty, [], 'every metric a panel reads is exported');
  });

  it('fires PortalAllowlistNotificationsDown when PostgreSQL cannot be reached, and resolves when it is back', async () => {
    await proxy.refuse();
    await waitFor('PortalAllowlistNotificationsDown firing', FIRES_WITHIN_MS, () =>
      firing('PortalAllowlistNotificationsDown'),
    );
    // The instance still answers its scrape, in time: what it reads from the database is left out, the rest is there.
    const started = performance.now();
    const scrape = await fetch(`http://${target}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await scrape.text();
    assert.equal(scrape.status, 200);
    assert.ok(performance.now() - started < 8_000, `the scrape took ${Math.round(performance.now() - started)} ms`);
    assert.doesNotMatch(text, /^portal_account_cleanups_pending /m, 'not known while the database is away');
    assert.match(text, /^portal_schema_migrations_expected \d+$/m);
    assert.match(text, /^portal_allowlist_notifications_live 0$/m);
    assert.equal((await query('up{job="portal"}'))[0]?.value[1], '1', 'Prometheus scrapes it too');
    await proxy.restore();
    await waitFor(
      'the alert resolved',
      FIRES_WITHIN_MS,
      async () => !(await firing('PortalAllowlistNotificationsDown')),
    );
  });
});
