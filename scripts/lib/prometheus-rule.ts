/**
 * The monitoring component's PrometheusRule, made from deploy/monitoring/alert-rules.yaml: one source for the
 * alert rules, whether Prometheus loads the file (`rule_files:`) or the Prometheus Operator the object.
 * `npm run monitoring:rules` writes it; `npm run test:deploy` fails when the file in the repository differs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from '@portal/dev-stack';

export const ALERT_RULES = path.join(REPO_ROOT, 'deploy/monitoring/alert-rules.yaml');
export const PROMETHEUS_RULE = path.join(REPO_ROOT, 'deploy/kubernetes-components/monitoring/prometheus-rule.yaml');

export function alertRuleGroups(): unknown[] {
  return (parse(readFileSync(ALERT_RULES, 'utf8')) as { groups: unknown[] }).groups;
}

export function renderPrometheusRule(): string {
  const object = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'portal-alerts', labels: { 'app.kubernetes.io/name': 'parcel-portal' } },
    spec: { groups: alertRuleGroups() },
  };
  return [
    '# Generated from deploy/monitoring/alert-rules.yaml by `npm run monitoring:rules`: change the rules there, then',
    '# run it (`npm run test:deploy` fails while the two differ). What each alert means: docs/operations.md.',
    stringify(object, { lineWidth: 0 }),
  ].join('\n');
}
