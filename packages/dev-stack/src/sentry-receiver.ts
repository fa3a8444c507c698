import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedEvent {
  environment?: string;
  release?: string;
  exception?: { values?: { type?: string; value?: string; stacktrace?: { frames?: unknown[] } }[] };
  breadcrumbs?: unknown[];
  [key: string]: unknown;
}

/**
 * A local stand-in for Sentry's ingestion endpoint: it accepts envelopes from the real SDKs (browser and Node) over
 * real HTTP and keeps the events so a test can read them back at GET /events.
 */
export async function startSentryReceiver() {
  const events: ReceivedEvent[] = [];
  const server = http.createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', '*');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    if (request.method === 'GET' && request.url === '/events') {
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(events));
    }
    if (request.method === 'DELETE' && request.url === '/events') {
      events.length = 0;
      return void response.writeHead(204).end();
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // An envelope is newline-delimited JSON: a header, then item header / payload pairs.
      const lines = Buffer.concat(chunks).toString().split('\n').filter(Boolean);
      for (let index = 1; index + 1 < lines.length; index += 2) {
        try {
          const itemHeader = JSON.parse(lines[index] ?? '{}') as { type?: string };
          if (itemHeader.type === 'event') events.push(JSON.parse(lines[index + 1] ?? '{}') as ReceivedEvent);
        } catch {
          // not an event item
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dsn: `http://e2epublickey@127.0.0.1:${port}/1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
