/** `npm run monitoring:rules`: writes the monitoring component's PrometheusRule from the alert rules (scripts/lib/prometheus-rule.ts). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';
import { PROMETHEUS_RULE, renderPrometheusRule } from './lib/prometheus-rule.ts';

writeFileSync(PROMETHEUS_RULE, renderPrometheusRule());
console.log(`wrote ${path.relative(REPO_ROOT, PROMETHEUS_RULE)}`);
