import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import spa from './spa.ts';

const INDEX = '<!doctype html><title>Parcel Invoice Portal</title><div id="root"></div>';
const SCRIPT = 'console.log("the portal");'.repeat(50);

/** A built SPA as `npm run build` leaves it: each text file with its brotli and gzip twins. */
async function writeBuild(dir: string) {
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  const files: [string, string][] = [
    ['index.html', INDEX],
    ['assets/index-abc123.js', SCRIPT],
  ];
  for (const [name, content] of files) {
    await writeFile(path.join(dir, name), content);
    await writeFile(path.join(dir, `${name}.br`), brotliCompressSync(content));
    await writeFile(path.join(dir, `${name}.gz`), gzipSync(content));
  }
  await writeFile(path.join(dir, 'assets/index-abc123.js.map'), '{"version":3}');
}

describe('serving the built SPA', () => {
  const pageAccess = new Set<string>();
  let dir: string;
  let app: FastifyInstance;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'portal-spa-test-'));
    await writeBuild(dir);
    app = Fastify();
    app.addHook('onRoute', (route) => {
      if (['/', '/*', '/assets/*'].includes(route.url)) pageAccess.add(String(route.config?.access));
    });
    await app.register(spa, { distDir: dir });
    await app.ready();
  });

  after(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the brotli twin of a hashed asset when the browser takes brotli, cached for a year', async () => {
    const response = await app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-encoding'], 'br');
    assert.match(String(response.headers.vary), /accept-encoding/i);
    assert.match(String(response.headers['content-type']), /javascript/);
    assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(brotliDecompressSync(response.rawPayload).toString(), SCRIPT);
  });

  it('sends the gzip twin to a browser without brotli', async () => {
    const response = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(response.headers['content-encoding'], 'gzip');
    assert.match(String(response.headers.vary), /accept-encoding/i);
    assert.equal(gunzipSync(response.rawPayload).toString(), SCRIPT);
  });

  it('sends the plain file to a client that takes no compression', async () => {
    const response = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    assert.equal(response.headers['content-encoding'], undefined);
    assert.equal(response.body, SCRIPT);
  });

  it('sends index.html compressed and never cached without revalidation, for every client-side route', async () => {
    for (const url of ['/', '/login', '/invoice?parcelCode=DEMO000001']) {
      const response = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['cache-control'], 'no-cache', url);
      assert.equal(response.headers['content-encoding'], 'br', url);
      assert.equal(brotliDecompressSync(response.rawPayload).toString(), INDEX, url);
    }
  });

  it('answers 404 for source maps, even one left in the served folder', async () => {
    const response = await app.inject({ url: '/assets/index-abc123.js.map' });
    assert.equal(response.statusCode, 404);
    assert.doesNotMatch(response.body, /"version"/);
  });

  it('answers an API path as the router would: 414 for a value over the path limit, else no such endpoint', async () => {
    const tooLong = await app.inject({ url: `/api/users/${'a'.repeat(400)}@example.com` });
    assert.equal(tooLong.statusCode, 414);
    assert.match(tooLong.json().message, /too long/);
    assert.ok(tooLong.body.length < 300, 'the value is not echoed back');
    assert.equal((await app.inject({ url: '/api/nothing-here' })).statusCode, 404);
  });

  it('declares its routes pages, whose callers are never verified', () => {
    assert.deepEqual([...pageAccess].sort(), ['page']);
  });
});

describe('a build that is not there yet when the server starts (npm start builds the SPA beside it)', () => {
  let dir: string;
  let app: FastifyInstance;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'portal-spa-later-test-'));
    app = Fastify();
    await app.register(spa, { distDir: path.join(dir, 'dist') });
    await app.ready();
  });

  after(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 404 until the build is in place, then serves it like any build', async () => {
    assert.equal((await app.inject({ url: '/login' })).statusCode, 404);
    await writeBuild(path.join(dir, 'dist'));
    const page = await app.inject({ url: '/login', headers: { 'accept-encoding': 'br' } });
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['cache-control'], 'no-cache');
    assert.equal(brotliDecompressSync(page.rawPayload).toString(), INDEX);
    const script = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } });
    assert.equal(script.statusCode, 200);
    assert.equal(script.headers['content-encoding'], 'br');
    assert.equal(script.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal((await app.inject({ url: '/assets/index-abc123.js.map' })).statusCode, 404);
    assert.equal((await app.inject({ url: '/api/nothing-here' })).statusCode, 404);
  });
});
