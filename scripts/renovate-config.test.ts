import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readRenovateConfig, renovateConfigProblems } from './lib/renovate-config.ts';

test("a misspelt option, at the top or in a package rule, and a value outside the schema's choices are named", () => {
  const config = readRenovateConfig() as { rangeStrategy: string; packageRules: Record<string, unknown>[] };
  assert.deepEqual(renovateConfigProblems(config), []);
  config.rangeStrategy = 'bumped';
  config.packageRules[0]!.groupNme = 'typo';
  assert.deepEqual(renovateConfigProblems({ ...config, schedul: ['at any time'] }), [
    'renovate.json.rangeStrategy: "bumped" is not one of auto, pin, bump, replace, widen, update-lockfile, in-range-only',
    'renovate.json.packageRules[0].groupNme: not an option Renovate knows',
    'renovate.json.schedul: not an option Renovate knows',
  ]);
});
