import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { REPO_ROOT } from '@portal/dev-stack';
import {
  type AcceptedAdvisory,
  auditVerdict,
  grypeIgnoreConfig,
  parseAuditOutput,
  productionFindings,
  productionPaths,
  readAcceptedAdvisories,
} from './lib/production-audit.ts';
import type { Sbom } from './lib/sbom.ts';

// Recorded from `npm audit --json` on this repository's tree, npm asking a local advisory endpoint that answered
// made-up advisories: pg-protocol (high, installed in production), react-dom (critical, in the SPA's bundle, a
// development dependency), ms (moderate, production) and vite (critical, development only).
const fixture = (name: string) => readFileSync(path.join(REPO_ROOT, 'scripts/fixtures/npm-audit', name), 'utf8');
const recorded = parseAuditOutput(fixture('report.json'));

const sbom = (paths: string[]): Sbom => ({
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  metadata: {},
  components: paths.map((value) => ({
    type: 'library',
    name: value.split('node_modules/').at(-1)!,
    properties: [{ name: 'cdx:npm:package:path', value }],
  })) as Sbom['components'],
});
const production = productionPaths([
  sbom(['node_modules/pg-protocol', 'node_modules/ms', 'node_modules/pg']),
  sbom(['node_modules/react-dom']),
]);

function findings() {
  assert.ok('report' in recorded);
  return productionFindings(recorded.report, production);
}

test("npm's report is read, and only the advisories of packages production carries are kept", () => {
  assert.deepEqual(
    findings().map((finding) => `${finding.severity} ${finding.advisory} ${finding.package} ${finding.paths.join()}`),
    [
      'critical GHSA-cccc-dddd-eeee react-dom node_modules/react-dom',
      'high GHSA-aaaa-bbbb-cccc pg-protocol node_modules/pg-protocol',
      'moderate GHSA-mmmm-nnnn-pppp ms node_modules/ms',
    ],
  );
});

test('high and critical advisories fail, lower ones are reported, accepted ones pass until their expiry', () => {
  const none = auditVerdict(findings(), [], '2026-11-28');
  assert.deepEqual(
    none.failing.map((finding) => finding.advisory),
    ['GHSA-cccc-dddd-eeee', 'GHSA-aaaa-bbbb-cccc'],
  );
  assert.deepEqual(
    none.reported.map((finding) => finding.advisory),
    ['GHSA-mmmm-nnnn-pppp'],
  );
  const accepted: AcceptedAdvisory[] = [
    { advisory: 'GHSA-cccc-dddd-eeee', reason: 'the SPA never renders on the server', expires: '2026-12-31' },
    {
      advisory: 'GHSA-aaaa-bbbb-cccc',
      package: 'pg-protocol',
      reason: 'only reached with a hostile server',
      expires: '2026-12-31',
    },
    { advisory: 'GHSA-2222-3333-4444', reason: 'an advisory fixed since', expires: '2027-01-31' },
  ];
  const inForce = auditVerdict(findings(), accepted, '2026-12-31');
  assert.deepEqual(inForce.failing, []);
  assert.deepEqual(
    inForce.accepted.map(({ finding }) => finding.advisory),
    ['GHSA-cccc-dddd-eeee', 'GHSA-aaaa-bbbb-cccc'],
  );
  assert.deepEqual(
    inForce.unused.map((entry) => entry.advisory),
    ['GHSA-2222-3333-4444'],
  );
  assert.deepEqual(inForce.expired, []);
  // The day after its expiry, an acceptance no longer covers its advisory, and is itself a failure.
  const lapsed = auditVerdict(findings(), accepted, '2027-01-01');
  assert.deepEqual(
    lapsed.failing.map((finding) => finding.advisory),
    ['GHSA-cccc-dddd-eeee', 'GHSA-aaaa-bbbb-cccc'],
  );
  assert.deepEqual(
    lapsed.expired.map((entry) => entry.advisory),
    ['GHSA-cccc-dddd-eeee', 'GHSA-aaaa-bbbb-cccc'],
  );
  // An acceptance for one package does not cover the same advisory in another.
  const otherPackage = auditVerdict(findings(), [{ ...accepted[1]!, package: 'pg' }], '2026-12-01');
  assert.ok(otherPackage.failing.some((finding) => finding.advisory === 'GHSA-aaaa-bbbb-cccc'));
});

test('when the advisory database cannot be asked, npm says why and no verdict is made', () => {
  const refused = parseAuditOutput(fixture('endpoint-refused.json'));
  assert.ok('unavailable' in refused);
  assert.match(
    refused.unavailable,
    /405 Method Not Allowed - POST https:\/\/registry\.npmjs\.org\/-\/npm\/v1\/security/,
  );
  const down = parseAuditOutput(fixture('registry-down.json'));
  assert.ok('unavailable' in down);
  assert.match(down.unavailable, /ECONNREFUSED/);
  const garbled = parseAuditOutput('npm ERR! something');
  assert.ok('unavailable' in garbled);
  assert.match(garbled.unavailable, /no JSON: npm ERR! something/);
});

test('the accepted list needs an advisory id, a reason and a real expiry date for each entry', () => {
  assert.ok(Array.isArray(readAcceptedAdvisories()));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'accepted-advisories-'));
  const file = path.join(dir, 'accepted.json');
  const refusal = (entry: object) => {
    writeFileSync(file, JSON.stringify({ accepted: [entry] }));
    return () => readAcceptedAdvisories(file);
  };
  const good = { advisory: 'GHSA-2222-3333-4444', reason: 'not reachable from the portal', expires: '2027-01-31' };
  writeFileSync(file, JSON.stringify({ accepted: [good, { ...good, advisory: 'CVE-2026-12345' }] }));
  assert.equal(readAcceptedAdvisories(file).length, 2);
  assert.throws(refusal({ ...good, advisory: 'pg-protocol' }), /"advisory" must be a GHSA or CVE id/);
  assert.throws(refusal({ ...good, reason: '' }), /"reason" must say why/);
  assert.throws(refusal({ ...good, expires: undefined }), /"expires" must be a date/);
  assert.throws(refusal({ ...good, expires: '2027-02-30' }), /"expires" must be a date/);
  assert.throws(refusal({ ...good, expires: '31.01.2027' }), /"expires" must be a date/);
});

test("the image scan's ignore rules are the accepted entries still in force", () => {
  const config = parse(
    grypeIgnoreConfig(
      [
        { advisory: 'CVE-2026-12345', reason: 'the base image has no fix yet', expires: '2026-12-31' },
        { advisory: 'GHSA-2222-3333-4444', package: 'ms', reason: 'fixed in the next release', expires: '2026-11-27' },
      ],
      '2026-11-28',
    ),
  ) as unknown;
  assert.deepEqual(config, { ignore: [{ vulnerability: 'CVE-2026-12345' }] });
});

test('the scan exits 2, saying so, when the advisory database cannot be reached', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'audit-sboms-'));
  for (const part of ['api', 'web']) writeFileSync(path.join(dir, `portal-${part}.cdx.json`), JSON.stringify(sbom([])));
  // A port nothing listens on: taken, then freed.
  const closedPort = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/audit-production.ts', dir, '--registry', `http://127.0.0.1:${closedPort}/`],
    { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, npm_config_fetch_retries: '0' }, timeout: 180_000 },
  );
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /No vulnerability scan: the advisory database could not be asked: .*ECONNREFUSED/);
});
