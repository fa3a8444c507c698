import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findFreePort, waitForHttp } from '@portal/dev-stack';
import { fakePdf, filesUnder } from '../helpers/fixtures.ts';
import { RECORD_SDK_MODULES, sdkModulesIn, TRACING_OFF } from '../helpers/sdk-modules.ts';
import { TEST_PROJECT_ID } from '../helpers/test-app.ts';

// Why a process of its own (.own-process): it starts and signals whole server processes and reads their exits.

const INGEST_TOKEN = 'fault-test-ingest-token-0123456789abcdef';
const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 3000;
const GRACE_MS = 1500;
const server = path.resolve('src/server.ts');

/** The real server process: stalled clients, `kill -9` during an upload, and SIGTERM while busy. */
describe('the server process under faults', () => {
  let dataDir: string;
  let port: number;
  let child: ChildProcess | undefined;
  /** What every server process of the file printed on stderr. */
  let stderr = '';
  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-server-fault-'));
  });
  after(async () => {
    child?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  async function start() {
    port = await findFreePort();
    // Every module the server loads is watched: without OTEL_* variables no part of the tracing SDK may load.
    child = spawn(process.execPath, ['--import', RECORD_SDK_MODULES, '--import', 'tsx', server], {
      env: {
        ...process.env,
        ...TRACING_OFF,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
        DATABASE_URL: '',
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
        INGEST_TOKEN,
        HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitForHttp(`http://127.0.0.1:${port}/api/readyz`, child, 'the API');
    return child;
  }

  const exited = (process: ChildProcess) =>
    new Promise<number | string | null>((resolve) =>
      process.exitCode !== null
        ? resolve(process.exitCode)
        : process.on('exit', (code, signal) => resolve(code ?? signal)),
    );

  /** A raw connection, so the test controls every byte and when it is sent. */
  function connect() {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (bytes) => (received += bytes.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise<number>((resolve) => {
      const opened = performance.now();
      socket.on('close', () => resolve((performance.now() - opened) / 1000));
    });
    return { socket, closed, received: () => received };
  }

  const uploadHead = (code: string, length: number) =>
    `PUT /api/invoices/${code} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${INGEST_TOKEN}\r\n` +
    `Content-Type: application/pdf\r\nContent-Length: ${length}\r\n\r\n`;

  it('cuts off a client that never finishes its headers or its body', async (test) => {
    await start();
    const slowloris = connect();
    slowloris.socket.write('GET /api/healthz HTTP/1.1\r\nHost: x\r\n');
    const stalled = connect();
    const pdf = fakePdf('stalled', 64 * 1024);
    stalled.socket.write(uploadHead('STALLED1', pdf.length) + pdf.subarray(0, 1000).toString('latin1'));
    const [headerSeconds, bodySeconds] = await Promise.all([slowloris.closed, stalled.closed]);
    assert.ok(headerSeconds < HEADERS_TIMEOUT_MS / 1000 + 2, `headers: ${headerSeconds} s`);
    assert.ok(bodySeconds < REQUEST_TIMEOUT_MS / 1000 + 2, `body: ${bodySeconds} s`);
    // The server is still free for everyone else.
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/healthz`)).status, 200);
    const stored = (await filesUnder(path.join(dataDir, 'invoices'))).filter((file) => !file.startsWith('tmp'));
    assert.deepEqual(stored, [], 'nothing of the stalled upload was stored');
    test.diagnostic(
      `slowloris cut after ${headerSeconds.toFixed(1)} s, stalled body after ${bodySeconds.toFixed(1)} s (${slowloris.received().split('\r\n')[0] || 'closed'}; ${stalled.received().split('\r\n')[0] || 'closed'}); healthz 200 meanwhile`,
    );
  });

  it('keeps no partial file after kill -9 during an upload, sweeps its temporary file, and takes the upload again', async (test) => {
    const pdf = fakePdf('killed', 512 * 1024);
    const upload = connect();
    upload.socket.write(uploadHead('KILLED1', pdf.length));
    upload.socket.write(pdf.subarray(0, pdf.length / 2));
    await new Promise((resolve) => setTimeout(resolve, 300));
    child?.kill('SIGKILL');
    await exited(child!);
    const invoiceDir = path.join(dataDir, 'invoices');
    const afterCrash = await filesUnder(invoiceDir);
    assert.deepEqual(
      afterCrash.filter((file) => !file.startsWith('tmp')),
      [],
      'no partial invoice is visible',
    );
    const longAgo = new Date(Date.now() - 24 * 3600 * 1000);
    for (const file of afterCrash) await utimes(path.join(invoiceDir, file), longAgo, longAgo);

    const restarted = performance.now();
    await start();
    const backSeconds = (performance.now() - restarted) / 1000;
    assert.deepEqual(await filesUnder(invoiceDir), [], 'the temporary file was swept at start');
    const retry = await fetch(`http://127.0.0.1:${port}/api/invoices/KILLED1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
      body: pdf,
    });
    assert.equal(retry.status, 201, await retry.text());
    assert.equal((await filesUnder(invoiceDir)).length, 1);
    test.diagnostic(
      `server killed mid-upload: ${afterCrash.length} temporary file left, swept at restart; server back in ${backSeconds.toFixed(1)} s and the upload succeeded`,
    );
  });

  it('drains on SIGTERM: not ready at once, finishes the upload in flight, then refuses and exits 0', async (test) => {
    const pdf = fakePdf('draining', 256 * 1024);
    const upload = connect();
    upload.socket.write(uploadHead('DRAIN1', pdf.length));
    upload.socket.write(pdf.subarray(0, 1000));
    child?.kill('SIGTERM');
    const signalled = performance.now();
    // The signal takes a moment to arrive; from then on readiness fails.
    let readyz = await fetch(`http://127.0.0.1:${port}/api/readyz`);
    while (readyz.status === 200 && performance.now() - signalled < 500) {
      readyz = await fetch(`http://127.0.0.1:${port}/api/readyz`);
    }
    assert.equal(readyz.status, 503);
    const notReadySeconds = (performance.now() - signalled) / 1000;
    // The rest of the body arrives during the grace period; the upload still succeeds.
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS / 2));
    upload.socket.write(pdf.subarray(1000));
    await upload.closed;
    assert.match(upload.received(), /^HTTP\/1\.1 201/);
    const code = await exited(child!);
    const exitSeconds = (performance.now() - signalled) / 1000;
    assert.equal(code, 0);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/api/healthz`), 'new connections are refused');
    test.diagnostic(
      `SIGTERM: readyz 503 after ${notReadySeconds.toFixed(2)} s, the upload in flight got 201, exit 0 after ${exitSeconds.toFixed(1)} s (grace ${GRACE_MS / 1000} s)`,
    );
  });

  it('loaded no part of the tracing SDK in any of its runs, without OTEL_* variables (decision 0079)', () => {
    assert.deepEqual(sdkModulesIn(stderr), []);
  });
});
