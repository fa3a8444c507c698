import { ApiError } from '@/lib/api-client';

/**
 * The response's status text, as the spec asks for list and register failures. HTTP/2 carries no status
 * text, so the server's message (or a generic line) stands in rather than an empty modal.
 */
export function statusTextOf(error: unknown): string {
  if (error instanceof ApiError) return error.statusText || error.serverMessage || error.message;
  return 'The server sent an answer the portal did not understand.';
}

/** The `message` of the response body, as the spec asks for create failures, else the status text. */
export function serverMessageOf(error: unknown): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return statusTextOf(error);
}
