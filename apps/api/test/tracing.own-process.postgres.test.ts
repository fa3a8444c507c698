import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { findFreePort, waitForHttp } from '@portal/dev-stack';
import { fakePdf } from './helpers/fixtures.ts';
import { openTestInvoiceStore, type TestInvoiceStore } from './helpers/invoice-stores.ts';
import { startOtlpReceiver, type ReceivedSpan } from './helpers/otlp-receiver.ts';
import { PERSONAL_ATTRIBUTES } from '../src/observability/trace-privacy.ts';
import { RECORD_SDK_MODULES, sdkModulesIn } from './helpers/sdk-modules.ts';
import { TEST_PROJECT_ID } from './helpers/test-app.ts';
import { signIn, signUp } from './helpers/tokens.ts';

// Why a process of its own (.own-process): it starts a whole server process, whose tracing SDK must load before
// the modules it instruments. That none of it loads without OTEL_* variables is checked where the server is
// started anyway (faults/server-process.own-process.test.ts), with the module recorder this file shows working. PostgreSQL only (.postgres): the pg instrumentation sees
// the `pg` driver, which PGlite does not use, and the trace must show the database.

const INGEST_TOKEN = 'tracing-test-ingest-token-0123456789abcdef';
const PARCEL_CODE = 'TRACEPARCEL7';
const EMAIL = 'traced.person@example.com';
const server = path.resolve('src/server.ts');

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
}

describe('traces (OpenTelemetry, opt-in by OTEL_* variables)', () => {
  const children: ChildProcess[] = [];
  let dataDir: string;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  // The invoices in a bucket (a local S3 server), so the trace shows the AWS SDK's calls too.
  let store: TestInvoiceStore;
  const databaseUrl = process.env.DATABASE_URL ?? '';

  before(async () => {
    assert.ok(databaseUrl, 'DATABASE_URL names the PostgreSQL pass database');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-tracing-'));
    [receiver, store] = await Promise.all([startOtlpReceiver(), openTestInvoiceStore('object', dataDir)]);
  });
  after(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all([receiver?.close(), store?.close()]);
    await rm(dataDir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string>): Promise<Started> {
    const port = await findFreePort();
    const child = spawn(process.execPath, ['--import', RECORD_SDK_MODULES, server], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
        DATABASE_URL: databaseUrl,
        WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
        INGEST_TOKEN,
        // The test stands where nginx would: its X-Request-Id is taken as the request's id, and its trace
        // context continued. A peer at another address (127.0.0.2) is a caller like any other.
        TRUST_PROXY: '127.0.0.1',
        TRUST_TRACE_CONTEXT: 'true',
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: '0',
        ...store.env,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForHttp(`http://127.0.0.1:${port}/api/readyz`, child, 'the API').catch((error: Error) => {
      throw new Error(`${error.message}:\n${output.slice(-3000)}`);
    });
    return { child, port, output: () => output };
  }

  const stopped = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });

  it('traces one invoice download from the caller’s traceparent through the route, the token check, PostgreSQL and the bucket', async (test) => {
    const on = await start({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
      // Sentry initialised beside the SDK must leave the trace to it (decision 0079).
      SENTRY_DSN: `http://public@127.0.0.1:${new URL(receiver.url).port}/1`,
    });
    const base = `http://127.0.0.1:${on.port}`;

    const upload = await fetch(`${base}/api/invoices/${PARCEL_CODE}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
      body: fakePdf('traced'),
    });
    assert.equal(upload.status, 201, await upload.text());
    const account = await signUp(EMAIL);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      await db.query('INSERT INTO users (email, activated, registered, firebase_uid) VALUES ($1, true, true, $2)', [
        EMAIL,
        account.uid,
      ]);
    } finally {
      await db.end();
    }

    // What a browser's traceparent looks like after nginx passed it on, with nginx's request id beside it.
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const nginxRequestId = randomBytes(16).toString('hex');
    // The new row reaches the instance's allowlist through LISTEN: asked for a code that has no invoice until
    // the answer is 404 (allowed) instead of 403, which touches neither the traced download's invoice nor its
    // token (verified tokens are cached: the traced request uses a later one, so its check reaches Firebase).
    for (let waited = 0; ; waited += 100) {
      const probe = await fetch(`${base}/api/invoice?parcelCode=NOSUCHCODE1`, {
        headers: { authorization: `Bearer ${account.idToken}` },
      });
      await probe.arrayBuffer();
      if (probe.status === 404) break;
      assert.ok(probe.status === 403 && waited < 30_000, `the new user is not let in: ${probe.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    let idToken = account.idToken;
    while (idToken === account.idToken) {
      // The emulator's tokens differ by their issue time, in seconds.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      ({ idToken } = await signIn(EMAIL));
    }
    const download = await fetch(`${base}/api/invoice?parcelCode=${PARCEL_CODE}`, {
      headers: {
        authorization: `Bearer ${idToken}`,
        traceparent: `00-${traceId}-${callerSpanId}-01`,
        'x-request-id': nginxRequestId,
      },
    });
    const body = await download.text();
    assert.equal(download.status, 200, body);
    assert.equal(download.headers.get('x-request-id'), nginxRequestId);

    // The request's spans end with it; the batch leaves within OTEL_BSP_SCHEDULE_DELAY.
    const inTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
    const serverSpanOf = () => inTrace().find((span) => span.kind === 2 && span.attributes['http.route']);
    for (let waited = 0; waited < 15_000 && !serverSpanOf(); waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    // The pg spans of the download's last writes may leave in the next batch.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const spans = inTrace();
    const serverSpan = serverSpanOf();
    assert.ok(serverSpan, `a server span in the trace; received: ${spanTree(receiver.spans)}`);

    // The caller's trace, continued: its span is the server span's parent.
    assert.equal(serverSpan.parentSpanId, callerSpanId);
    assert.equal(serverSpan.name, 'GET /api/invoice');
    assert.equal(serverSpan.attributes['http.route'], '/api/invoice');
    assert.equal(serverSpan.attributes['http.response.status_code'], 200);
    // nginx's id (the portal's reqId) on the server span: its access log line finds the trace.
    assert.equal(serverSpan.attributes['portal.request_id'], nginxRequestId);

    const named = (name: string) => spans.filter((span) => span.name === name);
    assert.equal(named('firebase verify id token').length, 1, spanTree(spans));
    const [blobRead] = named('blob read');
    assert.ok(blobRead, spanTree(spans));
    // The bucket's GetObject, by the AWS SDK's instrumentation, inside the portal's span.
    const s3 = spans.filter((span) => span.scope.includes('instrumentation-aws-sdk'));
    assert.ok(
      s3.some((span) => span.parentSpanId === blobRead.spanId && span.name === 'S3.GetObject'),
      spanTree(spans),
    );
    const database = spans.filter((span) => span.scope.includes('instrumentation-pg'));
    assert.ok(database.length > 0, `database spans in the trace: ${spanTree(spans)}`);
    assert.ok(
      database.every(
        (span) => span.attributes['db.system.name'] === 'postgresql' || span.attributes['db.system'] === 'postgresql',
      ),
    );
    // Every span hangs under the server span, within the one trace.
    const ids = new Set(spans.map((span) => span.spanId));
    for (const span of spans)
      assert.ok(span === serverSpan || ids.has(span.parentSpanId), `${span.name} has its parent in the trace`);

    // The upload's own trace read the file (the e-invoice reader).
    assert.ok(
      receiver.spans.some((span) => span.name === 'e-invoice read'),
      spanTree(receiver.spans),
    );

    // No parcel code, e-mail address or token in any span of any trace.
    const everything = JSON.stringify(receiver.spans, (_key, value: unknown) =>
      typeof value === 'bigint' ? value.toString() : value,
    );
    const leaking = receiver.spans.filter((span) =>
      JSON.stringify({ ...span, startNs: 0, endNs: 0 }).includes(PARCEL_CODE),
    );
    assert.deepEqual(
      leaking.map((span) => ({ name: span.name, attributes: span.attributes })),
      [],
      'no parcel code in the spans',
    );
    assert.ok(!everything.includes(EMAIL), 'no e-mail address in the spans');
    assert.ok(!everything.includes(idToken.split('.')[1]!.slice(0, 40)), 'no token in the spans');

    // Who called stays out of every span: no address, no port, no browser.
    for (const span of receiver.spans) {
      const carried = Object.keys(span.attributes).filter((name) => PERSONAL_ATTRIBUTES.has(name));
      assert.deepEqual(carried, [], `${span.name} carries who called`);
    }

    // A caller the instance does not trust as its proxy brings a traceparent: its request starts a trace of its own.
    const foreignTraceId = randomBytes(16).toString('hex');
    const versionSpansBefore = receiver.spans.filter((span) => span.attributes['http.route'] === '/api/version').length;
    const directStatus = await new Promise<number>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port: on.port,
            path: '/api/version',
            localAddress: '127.0.0.2',
            headers: { traceparent: `00-${foreignTraceId}-${randomBytes(8).toString('hex')}-01` },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        )
        .on('error', reject);
    });
    assert.equal(directStatus, 200);
    const versionSpans = () => receiver.spans.filter((span) => span.attributes['http.route'] === '/api/version');
    for (let waited = 0; waited < 15_000 && versionSpans().length === versionSpansBefore; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(versionSpans().length > versionSpansBefore, spanTree(receiver.spans));
    assert.ok(
      receiver.spans.every((span) => span.traceId !== foreignTraceId),
      'the untrusted caller’s trace is not continued',
    );

    const { release } = (await (await fetch(`${base}/api/version`)).json()) as { release: string };
    assert.equal(serverSpan.resource['service.name'], 'parcel-invoice-portal');
    assert.equal(serverSpan.resource['service.version'], release);
    assert.equal(serverSpan.resource['deployment.environment.name'], 'test');

    // The request's log line carries the trace (and the span) it belongs to.
    const lines = on
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const completed = lines.find((line) => line.reqId === nginxRequestId && line.msg === 'request completed');
    assert.equal(completed?.trace_id, traceId, 'the request log line names the trace');
    assert.match(String(completed?.span_id), /^[0-9a-f]{16}$/);
    assert.ok(!on.output().includes(PARCEL_CODE), 'the logs stay masked');

    await stopped(on.child);
    // The module recorder sees the SDK where it loads (and so would where it must not).
    assert.ok(sdkModulesIn(on.output()).some((url) => url.includes('@opentelemetry/sdk-trace')));
    test.diagnostic(`one invoice download, ${spans.length} spans:\n${spanTree(spans, serverSpan)}`);
  });
});

/** The spans as a tree under `root` (or a flat list), with their start offsets and durations in milliseconds. */
function spanTree(spans: ReceivedSpan[], root?: ReceivedSpan): string {
  const ms = (ns: bigint) => (Number(ns) / 1e6).toFixed(1);
  if (!root) return spans.map((span) => `${span.name} [${span.scope}]`).join('; ');
  const lines: string[] = [];
  const walk = (span: ReceivedSpan, depth: number) => {
    lines.push(
      `${'  '.repeat(depth)}${span.name} (+${ms(span.startNs - root.startNs)} ms, ${ms(span.endNs - span.startNs)} ms) [${span.scope}]`,
    );
    for (const child of spans
      .filter((other) => other.parentSpanId === span.spanId)
      .sort((a, b) => Number(a.startNs - b.startNs)))
      walk(child, depth + 1);
  };
  walk(root, 0);
  return lines.join('\n');
}
