import { codeForStatus, isErrorCode, type ErrorCode } from '@portal/contract/error-codes';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useAuth } from './auth';
import { useRuntimeConfig } from './runtime-config';

/**
 * A failed call: `status` 0 means no response arrived at all. `code` is the server's `code`, or, for an
 * answer without one (a proxy's error page, no answer), the code of its status: messages choose by it.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;

  constructor(
    readonly status: number,
    readonly statusText: string,
    /** The `message` of the server's `{ message, code }` body, when it sent one. */
    readonly serverMessage: string | undefined,
    /** The server's X-Request-Id for this call: the reference a person quotes to support. */
    readonly requestId?: string,
    serverCode?: ErrorCode,
  ) {
    super(serverMessage ?? (statusText || (status === 0 ? 'No response from the server' : `HTTP ${status}`)));
    this.code = serverCode ?? codeForStatus(status);
  }
}

/** The error code of a failed call; anything that is not an API error counts as no answer. */
export const errorCodeOf = (error: unknown): ErrorCode => (error instanceof ApiError ? error.code : 'unavailable');

interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Send the signed-in user's ID token as a bearer token. */
  auth?: boolean;
  /** JSON body; `null` sends the JSON content type with an empty body (the spec's create call). */
  json?: unknown;
  /** Parses and checks a JSON response (a zod schema, or any parser of that shape). */
  schema?: { parse(value: unknown): T };
  /** Read the response as binary. */
  blob?: boolean;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

export interface ApiClient {
  request<T = undefined>(path: string, options?: RequestOptions<T>): Promise<ApiResponse<T>>;
}

async function readErrorBody(response: Response): Promise<{ message?: string; code?: ErrorCode }> {
  try {
    const body = (await response.json()) as { message?: unknown; code?: unknown };
    return {
      ...(typeof body.message === 'string' ? { message: body.message } : {}),
      ...(isErrorCode(body.code) ? { code: body.code } : {}),
    };
  } catch {
    return {};
  }
}

export function createApiClient(
  baseUrl: string,
  getIdToken: (forceRefresh?: boolean) => Promise<string | null>,
): ApiClient {
  async function send(path: string, options: RequestOptions<unknown>, forceRefresh: boolean): Promise<Response> {
    const headers = new Headers();
    if (options.auth) {
      const token = await getIdToken(forceRefresh);
      if (token) headers.set('authorization', `Bearer ${token}`);
    }
    if (options.json !== undefined) headers.set('content-type', 'application/json');
    try {
      return await fetch(`${baseUrl}${path}`, {
        method: options.method ?? 'GET',
        headers,
        body: options.json === undefined || options.json === null ? undefined : JSON.stringify(options.json),
        signal: options.signal,
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ApiError(0, '', undefined);
    }
  }

  return {
    async request<T>(path: string, options: RequestOptions<T> = {}) {
      let response = await send(path, options as RequestOptions<unknown>, false);
      // An ID token can expire between the SDK's check and the server's; one forced refresh covers it.
      if (response.status === 401 && options.auth)
        response = await send(path, options as RequestOptions<unknown>, true);
      if (!response.ok) {
        const requestId = response.headers.get('x-request-id') ?? undefined;
        const body = await readErrorBody(response);
        throw new ApiError(response.status, response.statusText, body.message, requestId, body.code);
      }
      let data: unknown = undefined;
      if (options.blob) data = await response.blob();
      else if (options.schema) data = options.schema.parse(await response.json());
      return { data: data as T, headers: response.headers };
    },
  };
}

/** The reference of a failed API call for the error modal, when the server gave one. */
export function requestIdOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.requestId : undefined;
}

const ApiClientContext = createContext<ApiClient | null>(null);

export function ApiClientProvider({ children }: { children: ReactNode }) {
  const { apiBaseUrl } = useRuntimeConfig();
  const { client } = useAuth();
  const api = useMemo(() => createApiClient(apiBaseUrl, (force) => client.getIdToken(force)), [apiBaseUrl, client]);
  return <ApiClientContext value={api}>{children}</ApiClientContext>;
}

export function useApiClient(): ApiClient {
  const api = useContext(ApiClientContext);
  if (!api) throw new Error('useApiClient must be used inside ApiClientProvider');
  return api;
}
