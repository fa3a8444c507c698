/**
 * `npm run test:alerts`: the Prometheus alert rules (deploy/monitoring/alert-rules.yaml) checked and unit
 * tested with promtool, the tool Prometheus itself ships: each rule must be valid PromQL, and each alert must
 * have a test in alert-rules.test.yaml that expects it to fire (and, where it matters, not to fire before its
 * `for`). Every portal metric a rule or the Grafana dashboard reads must be one the API declares
 * (apps/api/src/observability/metrics.ts), and the operations guide must name every metric and alert. Needs promtool (Debian's `prometheus` package; the set-up line installs it).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { REPO_ROOT, SETUP_COMMAND } from '@portal/dev-stack';
import { githubSlug, type RuleWithAnnotations, unkeptInstallationLabels } from './lib/alert-queries.ts';

const dir = path.join(REPO_ROOT, 'deploy/monitoring');
const RULES = 'alert-rules.yaml';
const TESTS = 'alert-rules.test.yaml';

function promtool(...args: string[]) {
  const run = spawnSync('promtool', args, { cwd: dir, encoding: 'utf8' });
  if (run.error) throw new Error(`promtool is missing (Debian's prometheus package): run \`${SETUP_COMMAND}\``);
  process.stdout.write(run.stdout);
  if (run.status !== 0) throw new Error(`promtool ${args.join(' ')} failed:\n${run.stderr}${run.stdout}`);
}

promtool('check', 'rules', RULES);
promtool('test', 'rules', TESTS);

// The compose profile's Alertmanager, checked with the tool Alertmanager ships.
const amtool = spawnSync('amtool', ['check-config', 'compose/alertmanager.yaml'], { cwd: dir, encoding: 'utf8' });
if (amtool.error)
  throw new Error(`amtool is missing (Debian's prometheus-alertmanager package): run \`${SETUP_COMMAND}\``);
process.stdout.write(amtool.stdout);
if (amtool.status !== 0) throw new Error(`amtool check-config failed:\n${amtool.stderr}${amtool.stdout}`);

// The compose profile's Prometheus (deploy/monitoring/compose/prometheus.yaml), checked whole, its rule files
// included; only the token's path is pointed at a file that exists here (in the container it is a secret).
const composePrometheus = parse(readFileSync(path.join(dir, 'compose/prometheus.yaml'), 'utf8')) as {
  rule_files: string[];
  alerting?: unknown;
  scrape_configs: { job_name: string; authorization: { credentials_file: string } }[];
};
const scratch = mkdtempSync(path.join(os.tmpdir(), 'portal-prometheus-'));
try {
  writeFileSync(path.join(scratch, 'metrics-token.txt'), 'a-token-for-the-check\n');
  for (const job of composePrometheus.scrape_configs)
    job.authorization.credentials_file = path.join(scratch, 'metrics-token.txt');
  if (!JSON.stringify(composePrometheus.alerting ?? {}).includes('alertmanager:9093'))
    throw new Error('deploy/monitoring/compose/prometheus.yaml sends its alerts to no Alertmanager');
  composePrometheus.rule_files = composePrometheus.rule_files.map((file) => path.join(dir, 'compose', file));
  writeFileSync(path.join(scratch, 'prometheus.yaml'), stringify(composePrometheus));
  promtool('check', 'config', path.join(scratch, 'prometheus.yaml'));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (!composePrometheus.scrape_configs.some((job) => job.job_name === 'portal'))
  throw new Error(
    'deploy/monitoring/compose/prometheus.yaml: no scrape job named portal, which the alert rules select',
  );

interface RuleFile {
  groups: { rules: { alert?: string }[] }[];
}
interface TestFile {
  tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
}
const alerts = (parse(readFileSync(path.join(dir, RULES), 'utf8')) as RuleFile).groups.flatMap((group) =>
  group.rules.flatMap((rule) => (rule.alert ? [rule.alert] : [])),
);
const firing = new Set(
  (parse(readFileSync(path.join(dir, TESTS), 'utf8')) as TestFile).tests.flatMap((test) =>
    (test.alert_rule_test ?? []).filter((check) => check.exp_alerts.length > 0).map((check) => check.alertname),
  ),
);
const untested = alerts.filter((alert) => !firing.has(alert));
if (untested.length > 0) throw new Error(`alerts without a test that makes them fire: ${untested.join(', ')}`);
console.log(`ok  ${alerts.length} alerts, each with a test that makes it fire`);

// A renamed metric leaves a rule that never fires and a panel that stays empty, both silently.
const declared = new Set(
  [
    ...readFileSync(path.join(REPO_ROOT, 'apps/api/src/observability/metrics.ts'), 'utf8').matchAll(
      /name: '(portal_[a-z0-9_]+)'/g,
    ),
  ].map((match) => match[1]!),
);
const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');
const named = (text: string) =>
  new Set([...text.matchAll(/\bportal_[a-z0-9_]+/g)].map((match) => match[0].replace(/_(bucket|count|sum)$/, '')));
const dashboardQueries = (
  JSON.parse(read('grafana-dashboard.json')) as { panels: { targets?: { expr: string }[] }[] }
).panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
const ruleQueries = (parse(read(RULES)) as { groups: { rules: { expr: string }[] }[] }).groups.flatMap((group) =>
  group.rules.map((rule) => rule.expr),
);
const unknown = [
  ...[...named(ruleQueries.join('\n'))]
    .filter((metric) => !declared.has(metric))
    .map((metric) => `${RULES}: ${metric}`),
  ...[...named(dashboardQueries.join('\n'))]
    .filter((metric) => !declared.has(metric))
    .map((metric) => `grafana-dashboard.json: ${metric}`),
];
if (unknown.length > 0) throw new Error(`metrics the API does not declare:\n  ${unknown.join('\n  ')}`);
const guide = readFileSync(path.join(REPO_ROOT, 'docs/operations.md'), 'utf8');
const undocumented = [...declared, ...alerts].filter((name) => !guide.includes(name));
if (undocumented.length > 0) throw new Error(`docs/operations.md does not name: ${undocumented.join(', ')}`);
console.log(`ok  ${declared.size} metrics: every one a rule or panel reads is declared, and each is documented`);

// Alerts that know their installation: every aggregation keeps the namespace, and those of the portal's own
// series the environment too, so two installations in one Prometheus are never summed or compared together.
const rules = (parse(read(RULES)) as { groups: { rules: RuleWithAnnotations[] }[] }).groups.flatMap(
  (group) => group.rules,
);
const mixing = [
  ...rules.flatMap((rule) =>
    unkeptInstallationLabels(rule.expr, { environment: rule.expr.includes('job="portal"') }).map(
      (clause) => `${RULES}, ${rule.alert}: ${clause}`,
    ),
  ),
  // The dashboard shows one installation at a time: its Namespace and Environment variables select it.
  ...dashboardQueries.flatMap((expr) =>
    [...expr.matchAll(/\{job="portal"[^}]*\}/g)]
      .map((match) => match[0])
      .filter(
        (selector) =>
          !selector.includes('namespace=~"$namespace"') || !selector.includes('environment=~"$environment"'),
      )
      .map((selector) => `grafana-dashboard.json: ${selector}`),
  ),
];
if (mixing.length > 0) throw new Error(`queries that mix installations:\n  ${mixing.join('\n  ')}`);
console.log('ok  every rule and panel keeps namespace and environment apart');

// Every alert links its runbook: a section of the operations guide named after it.
const headings = new Set([...guide.matchAll(/^#{2,4} (.+)$/gm)].map((match) => githubSlug(match[1]!)));
const withoutRunbook = rules
  .filter((rule) => rule.alert)
  .filter((rule) => {
    const slug = rule.alert!.toLowerCase();
    return (
      rule.annotations?.runbook_url !== `{{ $externalLabels.portal_docs }}/docs/operations.md#${slug}` ||
      !headings.has(slug)
    );
  })
  .map((rule) => rule.alert);
if (withoutRunbook.length > 0)
  throw new Error(
    `alerts without a runbook_url to their own section of docs/operations.md: ${withoutRunbook.join(', ')}`,
  );
console.log(`ok  ${alerts.length} alerts, each with a runbook_url to its section of docs/operations.md`);
