import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useAuth } from './auth';
import { useRuntimeConfig } from './runtime-config';

/** A failed call: `status` 0 means no response arrived at all. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    /** The `message` of the server's `{ message }` body, when it sent one. */
    readonly serverMessage: string | undefined,
    /** The server's X-Request-Id for this call: the reference a person quotes to support. */
    readonly requestId?: string,
  ) {
    super(serverMessage ?? (statusText || (status === 0 ? 'No response from the server' : `HTTP ${status}`)));
  }
}

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

async function readServerMessage(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : undefined;
  } catch {
    return undefined;
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
        throw new ApiError(response.status, response.statusText, await readServerMessage(response), requestId);
      }
      let data: unknown = undefined;
      if (options.blob) data = await response.blob();
      else if (options.schema) data = options.schema.parse(await response.json());
      return { data: data as T, headers: response.headers };
    },
  };
}

/**
 * The reference of a failed API call for the error modal: only for a server failure (5xx), the one kind
 * support can look up and the person cannot put right; a refusal (4xx) says itself what to do.
 */
export function requestIdOf(error: unknown): string | undefined {
  return error instanceof ApiError && error.status >= 500 ? error.requestId : undefined;
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
