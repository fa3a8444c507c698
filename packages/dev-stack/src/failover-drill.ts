/**
 * The failover drill: a PostgreSQL primary with a synchronous replica, two compiled API instances behind nginx
 * on a DATABASE_URL naming both, and a steady, bounded load of uploads, downloads, admin additions and removals
 * (each audited). The primary is stopped hard and the replica promoted; afterwards the old primary is rewound
 * and comes back as a replica. What every acknowledged call wrote is looked for on the new primary, and the two
 * servers are compared. The topology suite asserts on the figures; `npm run bench:failover` prints them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findFreePort } from './auth-emulator.ts';
import { demoAccount } from './demo/accounts.ts';
import { identityToolkit } from './identity-toolkit.ts';
import { createSoftwareAuthenticator, enrollOrStepUp, httpPortalSession } from './passkeys/index.ts';
import { queryOn, startPostgresPair, type PostgresNode, type PostgresPair } from './postgres-pair.ts';
import { startTopology, type Topology } from './topology.ts';

export interface FailoverFigures {
  acknowledged: { uploads: number; additions: number; removals: number };
  /**
   * Acknowledged writes the new primary does not have, each named: an upload's row, bytes and audit entry, an
   * addition's or a removal's row and audit entry (written in the change's own transaction).
   */
  lost: string[];
  /** Calls answered 503 (each with Retry-After, else named in `unexpected`). */
  refused: number;
  /**
   * Answers that are neither success nor the outage's 503 (a 500, nginx's 502, a dropped connection), and
   * calls not answered within CALL_WITHIN_MS (an instance that hangs, which no answer code shows).
   */
  unexpected: string[];
  /** The longest stretch in which every call answered 503, from the first such answer to the last. */
  longest503Ms: number;
  /** From the primary's crash (and from the promotion) until every instance stores an upload again. */
  recoveredAfterCrashMs: number;
  recoveredAfterPromotionMs: number;
  /**
   * From the promotion until a download through nginx succeeds again: nginx leaves an instance out for its
   * fail_timeout (5 s) after the failover's 503s, so people reach the portal a little after the instances serve.
   */
  servedThroughProxyAfterPromotionMs: number;
  /** Calls in all, and after the promotion. */
  calls: number;
  /** Writes the old primary took once back (it must refuse them all: it is a replica). */
  writesAcceptedByOldPrimary: number;
  /** Tables whose rows differ between the new primary and the rejoined old one. */
  diverged: string[];
}

interface Answer {
  kind: 'upload' | 'download' | 'add' | 'remove';
  status: number;
  at: number;
  retryAfter: boolean;
}

const INGEST_TOKEN = randomBytes(24).toString('hex');
/**
 * Longer than anything the portal may take to answer on a busy machine (its database and identity timeouts,
 * nginx's), so a call still unanswered then is a hang, named among the unexpected answers, not a drill that
 * never ends.
 */
const CALL_WITHIN_MS = 90_000;
/** How long each instance may take, after the promotion, to store an upload again: sized for a busy machine. */
const RECOVERY_WITHIN_MS = 120_000;
/** How long the load may take to have a write of every kind acknowledged before the crash, on a busy machine. */
const FIRST_WRITES_WITHIN_MS = 120_000;
const LEAVERS = 40;
const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** A small PDF of its own per upload: every acknowledged one is told apart by its sha256. */
const invoiceBytes = (label: string) =>
  Buffer.from(`%PDF-1.7\n% failover drill ${label} ${randomBytes(8).toString('hex')}\n%%EOF`);

export interface FailoverDrillOptions {
  /**
   * Load before the crash (at least: until an upload, an addition and a removal are acknowledged), and after
   * every instance serves again.
   */
  steadyMs?: number;
  /** How long the replica waits to be promoted after the crash (an operator's detection). */
  detectionMs?: number;
  log?: (line: string) => void;
}

export async function runFailoverDrill(options: FailoverDrillOptions = {}): Promise<FailoverFigures> {
  const steadyMs = options.steadyMs ?? 2000;
  const detectionMs = options.detectionMs ?? 1000;
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'portal-failover-'));
  let pair: PostgresPair | undefined;
  let topology: Topology | undefined;
  try {
    pair = await startPostgresPair({ ports: [await findFreePort(), await findFreePort()], log: options.log });
    const [oldPrimary, replica] = pair.nodes;
    topology = await startTopology({
      port: await findFreePort(),
      instances: 2,
      databaseUrl: pair.url,
      workDir,
      env: {
        INGEST_TOKEN,
        RATE_LIMIT_DOWNLOADS_PER_HOUR: '1000000',
        // A busy machine's slow Auth emulator must not be taken for the database's outage, nor a slow start
        // for a server that cannot be reached (a stopped one refuses at once either way).
        IDENTITY_TIMEOUT_MS: '15000',
        DATABASE_CONNECT_TIMEOUT_MS: '5000',
      },
      log: options.log,
    });
    const figures = await underLoad(topology, pair, { steadyMs, detectionMs, oldPrimary, replica });
    return figures;
  } finally {
    await topology?.stop();
    pair?.remove();
    await rm(workDir, { recursive: true, force: true });
  }
}

async function underLoad(
  topology: Topology,
  pair: PostgresPair,
  phase: {
    steadyMs: number;
    detectionMs: number;
    oldPrimary: PostgresPair['nodes'][0];
    replica: PostgresPair['nodes'][1];
  },
): Promise<FailoverFigures> {
  const { oldPrimary, replica } = phase;
  const auth = identityToolkit(topology.emulator.url);
  const signIn = async (email: string) => {
    const account = demoAccount(email as 'user@example.com');
    return (await auth.signIn(account.email, account.password!)).idToken;
  };
  // People an admin removes during the drill, each signed in and allowed before it starts.
  const leavers = await Promise.all(
    Array.from({ length: LEAVERS }, async (_unused, index) => {
      const email = `leaver-${index}@example.com`;
      const { idToken, uid } = await auth.signUp(email, `leaver-password-${index}`);
      await queryOn(
        oldPrimary,
        `insert into users (email, activated, registered, created_by, firebase_uid) values ($1, true, true, 'drill', $2)`,
        [email, uid],
      );
      return { email, idToken };
    }),
  );
  const userToken = await signIn('user@example.com');
  const admin = httpPortalSession(topology.url, await signIn('admin@example.com'));
  const passkey = createSoftwareAuthenticator({ origin: `http://localhost:${new URL(topology.url).port}` });
  await enrollOrStepUp(admin.call, passkey, topology.demoAdminEnrollment?.code);

  const answers: Answer[] = [];
  const unexpected: string[] = [];
  const uploads: { parcelCode: string; sha256: string }[] = [];
  const additions: string[] = [];
  const removals: string[] = [];
  let stopped = false;
  const record = (kind: Answer['kind'], response: Response) => {
    const answer = {
      kind,
      status: response.status,
      at: performance.now(),
      retryAfter: response.headers.has('retry-after'),
    };
    answers.push(answer);
    if (answer.status === 503 && !answer.retryAfter) unexpected.push(`${kind}: 503 without Retry-After`);
    else if (answer.status >= 300 && answer.status !== 503) unexpected.push(`${kind}: HTTP ${answer.status}`);
    return answer.status < 300;
  };
  const call = async (kind: Answer['kind'], request: (signal: AbortSignal) => Promise<Response>) => {
    try {
      const response = await request(AbortSignal.timeout(CALL_WITHIN_MS));
      await response.arrayBuffer();
      return record(kind, response);
    } catch (error) {
      unexpected.push(`${kind}: ${String(error)}`);
      return false;
    }
  };
  const upload = async (base: string, label: string) => {
    const parcelCode = `FO-${label}`;
    const bytes = invoiceBytes(label);
    const ok = await call('upload', (signal) =>
      fetch(`${base}/api/invoices/${parcelCode}`, {
        signal,
        method: 'PUT',
        headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
        body: bytes,
      }),
    );
    if (ok) uploads.push({ parcelCode, sha256: sha256Of(bytes) });
    return ok;
  };
  // Every loop is bounded: by the drill's end, and by a number of rounds should the end never come.
  const paced = async (round: (index: number) => Promise<unknown>) => {
    for (let index = 0; !stopped && index < 2000; index++) {
      await round(index);
      await sleep(20);
    }
  };
  const workers = [
    paced((index) => upload(topology.url, `u1-${index}`)),
    paced((index) => upload(topology.url, `u2-${index}`)),
    paced(() =>
      call('download', (signal) =>
        fetch(`${topology.url}/api/invoice?parcelCode=DEMO000001`, {
          signal,
          headers: { authorization: `Bearer ${userToken}` },
        }),
      ),
    ),
    paced(async (index) => {
      const leaver = leavers[index];
      if (!leaver) return;
      const path = `/api/users/${encodeURIComponent(leaver.email)}`;
      const headers = admin.headers();
      if (await call('remove', (signal) => fetch(`${topology.url}${path}`, { signal, method: 'DELETE', headers }))) {
        removals.push(leaver.email);
      }
      const joiner = `joiner-${index}@example.com`;
      const added = await call('add', (signal) =>
        fetch(`${topology.url}/api/users/${encodeURIComponent(joiner)}`, {
          signal,
          method: 'POST',
          headers: { ...admin.headers(), 'content-type': 'application/json' },
          body: '{}',
        }),
      );
      if (added) additions.push(joiner);
      await sleep(80);
    }),
  ];

  let crashedAt = 0;
  let promotedAt = 0;
  let recovered: number[] = [];
  // The load ends with the drill, and also when a step of it fails: no loop is left calling a stopped topology.
  try {
    const loadStarted = performance.now();
    await sleep(phase.steadyMs);
    // The crash must meet writes of every kind acknowledged by the old primary, or the drill does not test that
    // none is lost. On a busy machine two seconds held an upload and a removal, and the addition after it met the
    // crash: the run had no acknowledged addition to check.
    while (uploads.length === 0 || additions.length === 0 || removals.length === 0) {
      if (performance.now() - loadStarted > FIRST_WRITES_WITHIN_MS)
        throw new Error(
          `not every kind of write was acknowledged within ${FIRST_WRITES_WITHIN_MS / 1000} s of load (uploads ${uploads.length}, additions ${additions.length}, removals ${removals.length}): ${unexpected.slice(-5).join('; ')}`,
        );
      await sleep(50);
    }
    crashedAt = performance.now();
    await pair.crash(oldPrimary);
    await sleep(phase.detectionMs);
    await pair.promote(replica);
    promotedAt = performance.now();
    // Each instance, asked directly, stores an upload again: it writes on the new primary.
    recovered = await Promise.all(
      topology.instances.map(async (instance, index) => {
        for (let attempt = 0; performance.now() - promotedAt < RECOVERY_WITHIN_MS; attempt++) {
          if (await upload(instance.url, `probe-${index}-${attempt}`)) return performance.now();
          await sleep(100);
        }
        throw new Error(
          `instance ${index + 1} did not store an upload within ${RECOVERY_WITHIN_MS / 1000} s of the promotion: ${unexpected.slice(-5).join('; ')}`,
        );
      }),
    );
    await sleep(phase.steadyMs);
  } finally {
    stopped = true;
    await Promise.all(workers);
  }
  const servedThroughProxyAt = await untilServedThroughProxy(topology.url, userToken);

  // The old primary comes back as a replica of the new one; the instances keep writing where they write.
  await pair.rejoinAsReplica(oldPrimary, replica);
  await untilServedThroughProxy(topology.url, userToken);
  for (let index = 0; index < 10; index++) await upload(topology.url, `after-rejoin-${index}`);
  let writesAcceptedByOldPrimary = 0;
  try {
    await queryOn(oldPrimary, `insert into users (email, created_by) values ('split-brain@example.com', 'drill')`);
    writesAcceptedByOldPrimary++;
  } catch (error) {
    if ((error as { code?: string }).code !== '25006') throw error;
  }
  const lost = await findLost(topology, replica, {
    uploads,
    additions,
    removals,
    leavers,
    userToken,
  });
  const diverged = await tablesThatDiffer(pair, replica, oldPrimary);
  return {
    acknowledged: { uploads: uploads.length, additions: additions.length, removals: removals.length },
    lost,
    refused: answers.filter((answer) => answer.status === 503).length,
    unexpected,
    longest503Ms: longestRefusedStretch(answers),
    recoveredAfterCrashMs: Math.max(...recovered) - crashedAt,
    recoveredAfterPromotionMs: Math.max(...recovered) - promotedAt,
    servedThroughProxyAfterPromotionMs: servedThroughProxyAt - promotedAt,
    calls: answers.length,
    writesAcceptedByOldPrimary,
    diverged,
  };
}

async function findLost(
  topology: Topology,
  primary: PostgresPair['nodes'][0],
  acknowledged: {
    uploads: { parcelCode: string; sha256: string }[];
    additions: string[];
    removals: string[];
    leavers: { email: string; idToken: string }[];
    userToken: string;
  },
): Promise<string[]> {
  const lost: string[] = [];
  const rows = (text: string, values: unknown[]) => queryOn(primary, text, values);
  for (const { parcelCode, sha256 } of acknowledged.uploads) {
    const versions = await rows('select 1 from invoice_versions where parcel_code = $1 and sha256 = $2', [
      parcelCode,
      sha256,
    ]);
    if (versions.length !== 1) lost.push(`upload ${parcelCode}: no invoice_versions row`);
    const audited = await rows(
      `select 1 from audit_log where action = 'invoice.ingest' and target = $1 and detail like $2`,
      [parcelCode, `%sha256=${sha256}%`],
    );
    if (audited.length === 0) lost.push(`upload ${parcelCode}: no audit entry`);
    const stored = await readFile(path.join(topology.invoiceDir, sha256.slice(0, 2), sha256)).catch(() => undefined);
    if (!stored || sha256Of(stored) !== sha256) lost.push(`upload ${parcelCode}: bytes missing from the store`);
    const download = await fetch(`${topology.url}/api/invoice?parcelCode=${parcelCode}`, {
      headers: { authorization: `Bearer ${acknowledged.userToken}` },
    });
    const body = new Uint8Array(await download.arrayBuffer());
    if (download.status !== 200 || sha256Of(body) !== sha256)
      lost.push(`upload ${parcelCode}: downloads as ${download.status} ${messageOf(download.status, body)}`);
  }
  for (const email of acknowledged.additions) {
    if ((await rows('select 1 from users where email = $1', [email])).length !== 1)
      lost.push(`addition ${email}: no row`);
    if ((await rows(`select 1 from audit_log where action = 'users.add' and target = $1`, [email])).length === 0) {
      lost.push(`addition ${email}: no audit entry`);
    }
  }
  for (const email of acknowledged.removals) {
    if ((await rows('select 1 from users where email = $1', [email])).length !== 0)
      lost.push(`removal ${email}: row back`);
    if ((await rows(`select 1 from audit_log where action = 'users.remove' and target = $1`, [email])).length === 0) {
      lost.push(`removal ${email}: no audit entry`);
    }
    const leaver = acknowledged.leavers.find((candidate) => candidate.email === email)!;
    const attempt = await fetch(`${topology.url}/api/invoice?parcelCode=DEMO000001`, {
      headers: { authorization: `Bearer ${leaver.idToken}` },
    });
    const answer = new Uint8Array(await attempt.arrayBuffer());
    if (attempt.status < 400 || attempt.status >= 500)
      lost.push(`removal ${email}: let in again (${attempt.status} ${messageOf(attempt.status, answer)})`);
  }
  return lost;
}

/**
 * Waits until a download through nginx succeeds, and says when. Before the writes and the looking that follow:
 * on an idle machine they would otherwise all fall in nginx's fail_timeout and be answered by nginx alone.
 */
async function untilServedThroughProxy(base: string, userToken: string): Promise<number> {
  const deadline = performance.now() + RECOVERY_WITHIN_MS;
  let last = 0;
  while (performance.now() < deadline) {
    const response = await fetch(`${base}/api/invoice?parcelCode=DEMO000001`, {
      headers: { authorization: `Bearer ${userToken}` },
      signal: AbortSignal.timeout(CALL_WITHIN_MS),
    });
    await response.arrayBuffer();
    if (response.status === 200) return performance.now();
    last = response.status;
    await sleep(100);
  }
  throw new Error(`no download through nginx succeeded within ${RECOVERY_WITHIN_MS / 1000} s (last: HTTP ${last})`);
}

/** What a refusal said, to tell one cause from another (an error's body is the portal's `{ message, code }`). */
function messageOf(status: number, body: Uint8Array): string {
  if (status < 400) return '';
  return Buffer.from(body).toString('utf8').slice(0, 200);
}

/** The longest time between a 503 and a later one with no success between them (in the order answered). */
function longestRefusedStretch(answers: Answer[]): number {
  const ordered = [...answers].sort((a, b) => a.at - b.at);
  let longest = 0;
  let firstRefused: number | undefined;
  for (const answer of ordered) {
    if (answer.status === 503) {
      firstRefused ??= answer.at;
      longest = Math.max(longest, answer.at - firstRefused);
    } else if (answer.status < 300) firstRefused = undefined;
  }
  return longest;
}

/**
 * The tables whose rows differ between the new primary and the rejoined old one, once the old one has replayed
 * what the new one had. The instances keep writing meanwhile (a download's audit entry is written in a batch
 * after it is answered, the clean-up job retries), so one look can catch a row written after the replay point:
 * the look is repeated, and a table that truly diverged differs at every look.
 */
async function tablesThatDiffer(pair: PostgresPair, upstream: PostgresNode, rejoined: PostgresNode) {
  const digest = (table: string) =>
    `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${table} t`;
  let differing: string[] = [];
  for (let look = 0; look < 10; look++) {
    await pair.waitForReplay(upstream, rejoined, 30_000);
    differing = [];
    for (const table of ['users', 'invoice_versions', 'audit_log']) {
      const [onNew] = await queryOn(upstream, digest(table));
      const [onOld] = await queryOn(rejoined, digest(table));
      if (onNew?.digest !== onOld?.digest) differing.push(table);
    }
    if (differing.length === 0) return differing;
    await sleep(300);
  }
  return differing;
}
