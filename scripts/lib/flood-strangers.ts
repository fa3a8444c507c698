// The strangers of `npm run bench:flood`, in a process of their own so their event loop does not slow the
// person being measured: `concurrency` loops calling the three calls anyone may make without signing in
// (look up, register, activate) for `seconds`, each call from the next client address of the pool (every
// 127.x.y.z is this machine's loopback on Linux, so each is a distinct client to nginx and the API).
// Prints one JSON line: how many calls were answered, refused (429) or failed, by kind.
import http from 'node:http';

export interface FloodPlan {
  url: string;
  concurrency: number;
  seconds: number;
  /** Loopback addresses 127.<block>.0.1 on, `count` of them (at most 65,535): passed as a range, since a list of tens of thousands would not fit in a command line. */
  addresses: { block: number; count: number };
  /** Only these calls (default: all three in turn). */
  kinds?: Kind[];
  /** Stop after this many calls, even before `seconds` have passed. */
  maxCalls?: number;
  /** Stop once this many were answered (calls refused meanwhile do not count). */
  maxAnswered?: number;
  /** Goes into every e-mail address asked about, so no two runs ask about the same ones. */
  tag: string;
  /**
   * A new connection for every call, closed after it (default: kept open per address). For a pool of tens
   * of thousands of addresses, each calling once or twice: what a botnet does, and open sockets stay few.
   */
  connectionPerCall?: boolean;
}

export interface FloodResult {
  calls: number;
  answered: number;
  refused: number;
  failed: number;
  byKind: Record<string, { answered: number; refused: number; failed: number }>;
  failures: string[];
}

const KINDS = ['lookup', 'register', 'activate'] as const;
export type Kind = (typeof KINDS)[number];

function requestOf(kind: Kind, tag: string, n: number) {
  const email = `stranger-${tag}-${n}@flood.example`;
  if (kind === 'lookup') return { method: 'GET', path: `/api/users/${encodeURIComponent(email)}`, body: undefined };
  if (kind === 'register') return { method: 'POST', path: '/api/users', body: JSON.stringify({ userId: email }) };
  return { method: 'PUT', path: `/api/users/${encodeURIComponent(email)}`, body: JSON.stringify({ activated: true }) };
}

/** `count` (at most 65,535) loopback addresses under 127.<block>.0.0/16, from .0.1 on. */
export const addressesIn = ({ block, count }: FloodPlan['addresses']) =>
  Array.from({ length: Math.min(count, 65_535) }, (_unused, i) => `127.${block}.${(i + 1) >> 8}.${(i + 1) & 255}`);

export async function flood(plan: FloodPlan): Promise<FloodResult> {
  const addresses = addressesIn(plan.addresses);
  const target = new URL(plan.url);
  const agents = new Map<string, http.Agent>();
  const agentFor = (address: string) => {
    let agent = agents.get(address);
    if (!agent) {
      agent = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: address });
      agents.set(address, agent);
    }
    return agent;
  };
  const result: FloodResult = {
    calls: 0,
    answered: 0,
    refused: 0,
    failed: 0,
    byKind: Object.fromEntries(KINDS.map((kind) => [kind, { answered: 0, refused: 0, failed: 0 }])),
    failures: [],
  };
  const kinds = plan.kinds ?? KINDS;
  const maxCalls = plan.maxCalls ?? Infinity;
  const maxAnswered = plan.maxAnswered ?? Infinity;
  let next = 0;
  const endAt = performance.now() + plan.seconds * 1000;

  const call = (address: string, kind: Kind, n: number) =>
    new Promise<number>((resolve, reject) => {
      const { method, path, body } = requestOf(kind, plan.tag, n);
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          method,
          path,
          ...(plan.connectionPerCall ? { localAddress: address, agent: false } : { agent: agentFor(address) }),
          headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {},
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });

  async function stranger() {
    while (performance.now() < endAt && next < maxCalls && result.answered < maxAnswered) {
      const n = next++;
      const address = addresses[n % addresses.length] ?? '127.0.0.1';
      const kind = kinds[n % kinds.length] ?? 'lookup';
      result.calls++;
      try {
        const status = await call(address, kind, n);
        // A lookup of an address nobody listed is answered 404: an answer like any other.
        if (status === 429) {
          result.refused++;
          result.byKind[kind]!.refused++;
        } else if (status < 500 && status !== 0) {
          result.answered++;
          result.byKind[kind]!.answered++;
        } else {
          result.failed++;
          result.byKind[kind]!.failed++;
          if (result.failures.length < 5) result.failures.push(`${kind} ${status}`);
        }
      } catch (error) {
        result.failed++;
        result.byKind[kind]!.failed++;
        if (result.failures.length < 5) result.failures.push(`${kind} ${(error as Error).message}`);
      }
    }
  }

  await Promise.all(Array.from({ length: plan.concurrency }, stranger));
  for (const agent of agents.values()) agent.destroy();
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const plan = JSON.parse(process.argv[2] ?? '{}') as FloodPlan;
  process.stdout.write(`${JSON.stringify(await flood(plan))}\n`);
}
