import assert from 'node:assert/strict';
import { test } from 'node:test';
import { componentKey, cutSbom, generateSbom, type Sbom, sbomPackageKeys, sbomSchemaErrors } from './lib/sbom.ts';

const bom: Sbom = {
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  metadata: { component: { type: 'application', name: 'portal', version: '1.0.0', 'bom-ref': 'root' } },
  components: [
    { type: 'library', name: 'pg', version: '8.16.0', 'bom-ref': 'root|pg', purl: 'pkg:npm/pg@8.16.0' },
    { type: 'library', group: '@types', name: 'pg', version: '8.15.6', 'bom-ref': 'root|@types/pg' },
    { type: 'library', group: '@portal', name: 'api', 'bom-ref': 'root|@portal/api' },
  ],
  dependencies: [
    { ref: 'root', dependsOn: ['root|@portal/api'] },
    { ref: 'root|@portal/api', dependsOn: ['root|pg'] },
    { ref: 'root|pg', dependsOn: ['root|@types/pg'] },
    { ref: 'root|@types/pg' },
  ],
};

test('the cut keeps the accepted components, the edges between them, and the root naming them', () => {
  const cut = cutSbom(bom, (key) => key === 'pg@8.16.0', 'api');
  assert.deepEqual([...sbomPackageKeys(cut)], ['pg@8.16.0']);
  assert.deepEqual(cut.dependencies, [
    { ref: 'root', dependsOn: ['root|pg'] },
    { ref: 'root|pg', dependsOn: [] },
  ]);
  assert.deepEqual(cut.metadata.properties, [{ name: 'portal:sbom:part', value: 'api' }]);
  assert.equal(componentKey({ group: '@types', name: 'pg', version: '8.15.6' }), '@types/pg@8.15.6');
});

test('the schema check takes a valid SBOM and names what breaks an invalid one', async () => {
  assert.equal(await sbomSchemaErrors(bom), null);
  const broken = structuredClone(bom);
  (broken.components![0] as unknown as { purl: number }).purl = 8;
  assert.match(JSON.stringify(await sbomSchemaErrors(broken)), /components\/0\/purl/);
});

test("the generator's SBOM of the API's production install is valid and holds its runtime packages", async () => {
  const generated = generateSbom('apps/api', { omitDev: true });
  assert.equal(await sbomSchemaErrors(generated), null);
  const names = new Set(
    (generated.components ?? []).map((component) => componentKey(component).replace(/@[^@]*$/, '')),
  );
  for (const runtime of ['fastify', 'pg', 'nodemailer', '@aws-sdk/client-s3']) assert.ok(names.has(runtime), runtime);
  for (const development of ['smtp-server', 'mailparser', 'drizzle-kit', 'vite'])
    assert.ok(!names.has(development), development);
  // NOTICE is rendered from these: each package's licence file travels in the SBOM as licence evidence.
  const pg = generated.components?.find((component) => componentKey(component).startsWith('pg@'));
  const licenceFile = pg?.evidence?.licenses?.find((evidence) => evidence.license?.name === 'file: LICENSE');
  assert.match(Buffer.from(licenceFile?.license?.text?.content ?? '', 'base64').toString('utf8'), /MIT License/);
});
