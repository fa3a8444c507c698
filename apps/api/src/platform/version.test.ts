import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { releaseName, versionInfoSchema } from '@portal/contract';
import { useTestApp } from '../../test/helpers/test-app.ts';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('GET /api/version', () => {
  const lines: string[] = [];
  const t = useTestApp({ logTo: (line) => lines.push(line) });

  it('answers anyone with the package version, the revision and the release they make', async () => {
    const response = await t.app.inject({ url: '/api/version' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['cache-control'], 'no-cache');
    const body = versionInfoSchema.parse(response.json());
    assert.equal(body.version, packageVersion);
    // Run from source (as tests are), the revision is PORTAL_REVISION's or says it is no build.
    assert.equal(body.revision, process.env.PORTAL_REVISION?.trim() || 'development');
    assert.equal(body.release, releaseName(body));
    assert.deepEqual(Object.keys(response.json()).sort(), ['release', 'revision', 'version']);
  });

  it('puts the same release in every log line', async () => {
    lines.length = 0;
    const { release } = (await t.app.inject({ url: '/api/version' })).json() as { release: string };
    await t.app.inject({ url: '/api/healthz' });
    await t.app.inject({ url: '/api/users/nobody@example.com' });
    assert.ok(lines.length >= 3, lines.join('\n'));
    for (const line of lines) assert.equal((JSON.parse(line) as { release?: string }).release, release, line);
  });
});

describe('releaseName', () => {
  it('is package@version+build with a 12-digit commit, keeping a -dirty mark', () => {
    const revision = '3e4e8906a1b2c3d4e5f60718293a4b5c6d7e8f90';
    assert.equal(releaseName({ version: '1.0.0', revision }), 'parcel-invoice-portal@1.0.0+3e4e8906a1b2');
    assert.equal(
      releaseName({ version: '1.0.0', revision: `${revision}-dirty` }),
      'parcel-invoice-portal@1.0.0+3e4e8906a1b2-dirty',
    );
    assert.equal(releaseName({ version: '1.2.3', revision: 'unknown' }), 'parcel-invoice-portal@1.2.3+unknown');
  });
});
