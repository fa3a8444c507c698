import type { FastifyReply } from 'fastify';
import type { InvoiceBytes } from '../invoices/invoice-access.ts';

/**
 * Sends a part's bytes, or hands them to nginx: with X-Accel-Redirect nginx keeps the headers set so far,
 * replaces the empty body with the blob (a file, or the object it fetches with a presigned request) and never
 * passes the header on.
 */
export function sendInvoiceBytes(reply: FastifyReply, bytes: InvoiceBytes) {
  if (bytes.body !== undefined) return reply.header('content-length', bytes.size).send(bytes.body);
  return reply.header('x-accel-redirect', bytes.internalPath).send(Buffer.alloc(0));
}
