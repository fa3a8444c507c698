import net from 'node:net';

/**
 * A TCP proxy between the API and a dependency, so a test can make that dependency fail the way a network
 * or a restart does, without touching the dependency itself (the PostgreSQL cluster is shared):
 * - cut(): drops every open connection (a server restart, a failover);
 * - refuse(): also stops listening, so new connections are refused (the server is down);
 * - stall(): accepts connections and swallows bytes, never answering (a black-holed network);
 * - stallConnectionsThatSent(text): the open connections whose client ever sent `text` (e.g. "LISTEN") go
 *   silent, both ways, and stay open, as behind a firewall that dropped them; every other connection, and
 *   every new one, carries on (an idle timeout in a middlebox, a pooler that lost a session);
 * - stallWhenSent(text): from now on, every connection goes silent (both ways, left open) as soon as its client
 *   sends `text`: a server that accepts and authenticates, then never answers (one frozen mid-failover);
 * - cutWhenSent(text): from now on, every connection is dropped as soon as its client sends `text`, before the
 *   server sees it: a server lost mid-question (stopped at once by a failover);
 * - restore(): forwards again on the same port.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  const links = new Set<Link>();
  let forwarding = true;
  let stallOn: string | undefined;
  let cutOn: string | undefined;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  interface Link {
    /** What the client has sent so far, as text (protocol messages are mostly readable). */
    sent: string;
    silent: boolean;
  }
  const server = net.createServer((client) => {
    track(client);
    if (!forwarding) return client.resume();
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    const link: Link = { sent: '', silent: false };
    links.add(link);
    const flows = () => forwarding && !link.silent;
    client.on('data', (bytes) => {
      if (link.sent.length < 1_000_000) link.sent += bytes.toString('latin1');
      if (stallOn !== undefined && link.sent.includes(stallOn)) link.silent = true;
      if (cutOn !== undefined && link.sent.includes(cutOn)) return client.destroy();
      if (flows()) upstream.write(bytes);
    });
    upstream.on('data', (bytes) => flows() && client.write(bytes));
    client.on('close', () => {
      links.delete(link);
      upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const port = await listen(0);
  const cut = () => {
    for (const socket of sockets) socket.destroy();
  };

  return {
    port,
    cut,
    async refuse() {
      const closed = new Promise((resolve) => server.close(resolve));
      cut();
      await closed;
    },
    stall() {
      forwarding = false;
    },
    /** How many open connections went silent. */
    stallConnectionsThatSent(text: string): number {
      let stalled = 0;
      for (const link of links) {
        if (link.sent.includes(text) && !link.silent) {
          link.silent = true;
          stalled++;
        }
      }
      return stalled;
    },
    stallWhenSent(text: string) {
      stallOn = text;
    },
    cutWhenSent(text: string) {
      cutOn = text;
    },
    async restore() {
      stallOn = undefined;
      cutOn = undefined;
      // Connections that lived through a stall lost bytes; they must not carry on as if nothing happened.
      if (!forwarding) cut();
      forwarding = true;
      if (!server.listening) await listen(port);
    },
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      cut();
      await closed;
    },
  };
}

/** Calls `request` until `ok` holds for its answer; resolves with the seconds that took. */
export async function secondsUntil<T>(request: () => Promise<T>, ok: (answer: T) => boolean, timeoutMs = 30_000) {
  const started = performance.now();
  for (;;) {
    const answer = await request();
    if (ok(answer)) return (performance.now() - started) / 1000;
    if (performance.now() - started > timeoutMs) {
      throw new Error(`not back to normal after ${timeoutMs} ms; last answer: ${describe(answer)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const describe = (answer: unknown) => {
  const { statusCode, body } = answer as { statusCode?: number; body?: string };
  return statusCode === undefined ? String(answer) : `${statusCode} ${body?.slice(0, 200) ?? ''}`;
};

/** Runs `request` and returns its answer and how long it took, in seconds. */
export async function timed<T>(request: () => Promise<T>): Promise<{ answer: T; seconds: number }> {
  const started = performance.now();
  const answer = await request();
  return { answer, seconds: (performance.now() - started) / 1000 };
}
