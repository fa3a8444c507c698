import { codeForStatus, isErrorCode, type ErrorCode } from '@portal/contract/error-codes';
import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
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
  /** Hand over the response's body unread, to be read as it arrives (a ZIP's progress). */
  stream?: boolean;
  /**
   * False for the passkey ceremonies themselves: a step-up refusal there is the answer to show, not a
   * reason to start another ceremony.
   */
  promptStepUp?: boolean;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

export interface ApiClient {
  request<T = undefined>(path: string, options?: RequestOptions<T>): Promise<ApiResponse<T>>;
}

interface ErrorAnswer {
  message?: string;
  code?: ErrorCode;
}

async function readErrorBody(response: Response): Promise<ErrorAnswer> {
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

/**
 * What the app does when the server refuses a signed-in call for a reason the person can fix on the spot.
 * Either may be absent: the call then fails like any other.
 */
export interface ApiInterceptors {
  /**
   * The server wants a recent passkey confirmation (an admin call): resolves true once the person gave one,
   * and the call is sent once more; false when they did not.
   */
  stepUp?: (message: string | undefined) => Promise<boolean>;
  /** The session reached its maximum length on the server: the person must sign in again. */
  sessionEnded?: (message: string | undefined) => void;
}

export const STEP_UP_REQUIRED: ErrorCode = 'step-up-required';
export const SESSION_EXPIRED: ErrorCode = 'session-expired';

export function createApiClient(
  baseUrl: string,
  getIdToken: (forceRefresh?: boolean) => Promise<string | null>,
  interceptors: ApiInterceptors = {},
): ApiClient {
  async function send(path: string, options: RequestOptions<unknown>, forceRefresh: boolean): Promise<Response> {
    const headers = new Headers();
    if (options.auth) {
      const token = await getIdToken(forceRefresh);
      performance.mark('portal:token');
      if (token) headers.set('authorization', `Bearer ${token}`);
    }
    if (options.json !== undefined) headers.set('content-type', 'application/json');
    try {
      // Credentials stay the default, same-origin: the step-up cookie a passkey ceremony set (HttpOnly, for
      // /api) goes with every API call of this origin without script ever seeing it.
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
      const untyped = options as RequestOptions<unknown>;
      let response = await send(path, untyped, false);
      let answer = response.ok ? {} : await readErrorBody(response);
      // An ID token can expire between the SDK's check and the server's; one forced refresh covers it.
      // A session past its maximum length stays refused whatever the token: no refresh for that.
      if (response.status === 401 && options.auth && answer.code !== SESSION_EXPIRED) {
        response = await send(path, untyped, true);
        answer = response.ok ? {} : await readErrorBody(response);
      }
      const mayPrompt = options.auth && options.promptStepUp !== false;
      if (response.status === 403 && answer.code === STEP_UP_REQUIRED && mayPrompt && interceptors.stepUp) {
        if (await interceptors.stepUp(answer.message)) {
          response = await send(path, untyped, false);
          answer = response.ok ? {} : await readErrorBody(response);
        }
      }
      if (!response.ok) {
        if (answer.code === SESSION_EXPIRED && options.auth) interceptors.sessionEnded?.(answer.message);
        const requestId = response.headers.get('x-request-id') ?? undefined;
        throw new ApiError(response.status, response.statusText, answer.message, requestId, answer.code);
      }
      let data: unknown = undefined;
      if (options.stream) data = response.body;
      else if (options.blob) data = await response.blob();
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

type StepUpHandler = NonNullable<ApiInterceptors['stepUp']>;

interface ApiClientContextValue {
  api: ApiClient;
  /** Puts `handler` in charge of step-up refusals; the returned function takes it out again. */
  answerStepUpsWith(handler: StepUpHandler): () => void;
}

const ApiClientContext = createContext<ApiClientContextValue | null>(null);

export function ApiClientProvider({ children }: { children: ReactNode }) {
  const { apiBaseUrl } = useRuntimeConfig();
  const { client, endSession } = useAuth();
  const value = useMemo(() => {
    // The screen that can answer a step-up puts its handler here while it is mounted.
    const interceptors: ApiInterceptors = { sessionEnded: endSession };
    return {
      api: createApiClient(apiBaseUrl, (force) => client.getIdToken(force), interceptors),
      answerStepUpsWith(handler: StepUpHandler) {
        interceptors.stepUp = handler;
        return () => {
          if (interceptors.stepUp === handler) interceptors.stepUp = undefined;
        };
      },
    };
  }, [apiBaseUrl, client, endSession]);
  useForgetStepUpOnSignOut(value.api);
  return <ApiClientContext value={value}>{children}</ApiClientContext>;
}

/**
 * Once a signed-in person is signed out (Sign Out, or the session ended), the API clears the browser's passkey
 * confirmation: it is an HttpOnly cookie, out of this script's reach. Best effort: a failure leaves a
 * confirmation that no new sign-in can use and that runs out on its own.
 */
function useForgetStepUpOnSignOut(api: ApiClient) {
  const { state } = useAuth();
  const wasSignedIn = useRef(false);
  useEffect(() => {
    if (state.status === 'signed-in') wasSignedIn.current = true;
    else if (state.status === 'signed-out' && wasSignedIn.current) {
      wasSignedIn.current = false;
      api.request('/me/step-up', { method: 'DELETE' }).catch(() => {});
    }
  }, [state.status, api]);
}

function useApiClientContext(): ApiClientContextValue {
  const value = useContext(ApiClientContext);
  if (!value) throw new Error('useApiClient must be used inside ApiClientProvider');
  return value;
}

export function useApiClient(): ApiClient {
  return useApiClientContext().api;
}

/**
 * While the calling component is mounted, a step-up refusal is answered by `handler` (the admin screen's
 * passkey prompt) and the refused call is retried once it resolves true.
 */
export function useStepUpHandler(handler: StepUpHandler) {
  const { answerStepUpsWith } = useApiClientContext();
  useEffect(() => answerStepUpsWith(handler), [answerStepUpsWith, handler]);
}
