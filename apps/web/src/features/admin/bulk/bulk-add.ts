import { emailFieldSchema } from '@/lib/email-field';
import { ApiError, type ApiClient } from '@/lib/api-client';
import { createUser, registerUser } from '../api/add-user';
import { serverMessageOf } from '../messages';

export type BulkOutcome = 'added' | 'exists' | 'invalid' | 'failed';

export interface BulkResult {
  /** As the admin typed it. */
  input: string;
  outcome: BulkOutcome;
  /** Why it is invalid or failed, or the server's word on a duplicate. */
  detail?: string;
}

export interface BulkAddOptions {
  onResult(result: BulkResult): void;
  /** Checked between addresses: stopping never leaves one half added. */
  shouldStop(): boolean;
  /** Waits before another try of a rate-limited register call; replaced in tests. */
  wait?: (ms: number) => Promise<void>;
}

// Register is the spec's unauthenticated call, which the API rate-limits per client address; after a
// refusal we wait for the limit window to move on rather than report a user who was in fact added.
const RATE_LIMIT_WAIT_MS = 5_000;
const RATE_LIMIT_TRIES = 14;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function registerWithPatience(api: ApiClient, email: string, wait: (ms: number) => Promise<void>) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await registerUser(api, email);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 429) || attempt >= RATE_LIMIT_TRIES) throw error;
      await wait(RATE_LIMIT_WAIT_MS);
    }
  }
}

async function addOne(api: ApiClient, input: string, wait: (ms: number) => Promise<void>): Promise<BulkResult> {
  const parsed = emailFieldSchema.safeParse(input);
  if (!parsed.success)
    return { input, outcome: 'invalid', detail: parsed.error.issues[0]?.message ?? 'Invalid email address' };
  const email = parsed.data;
  try {
    await createUser(api, email);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409)
      return { input, outcome: 'exists', detail: serverMessageOf(error) };
    return { input, outcome: 'failed', detail: serverMessageOf(error) };
  }
  try {
    await registerWithPatience(api, email, wait);
  } catch (error) {
    return { input, outcome: 'failed', detail: `Added, but registering failed: ${serverMessageOf(error)}` };
  }
  return { input, outcome: 'added' };
}

/** The single add (create, then register) for each address in turn, reporting each as it finishes. */
export async function bulkAdd(api: ApiClient, inputs: readonly string[], options: BulkAddOptions): Promise<void> {
  const wait = options.wait ?? sleep;
  for (const input of inputs) {
    if (options.shouldStop()) return;
    options.onResult(await addOne(api, input, wait));
  }
}
