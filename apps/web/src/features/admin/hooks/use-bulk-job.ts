import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError, useApiClient, type ApiClient } from '@/lib/api-client';
import { adminKeys } from '../api/query-keys';
import { NO_ANSWER_FOR_ADDRESS, serverMessageOf } from '../messages';

/** Addresses per call: one call takes about a second, so Stop never waits longer than that for the server. */
export const BULK_CHUNK_SIZE = 50;

export type BulkPhase = 'idle' | 'running' | 'stopping' | 'done';

export interface BulkJobState<R> {
  phase: BulkPhase;
  total: number;
  /** One per address the server answered for, in order. */
  results: readonly R[];
  /** Addresses never sent: the admin stopped the run, or a call failed as a whole. */
  skipped: readonly string[];
  /** Why the run ended early when the admin did not stop it. */
  haltedBy: string | null;
}

const IDLE = { phase: 'idle', total: 0, results: [], skipped: [], haltedBy: null } satisfies BulkJobState<never>;

/**
 * Runs a bulk call over a long list, `BULK_CHUNK_SIZE` addresses per call, one call after another. Stop
 * takes effect at once: the addresses not yet sent are listed as skipped straight away, and only the call
 * already under way is waited for. A call that fails as a whole ends the run: its addresses get `lost`,
 * the rest are skipped. The admin lists are reloaded at the end.
 */
export function useBulkJob<R>(
  send: (api: ApiClient, chunk: string[]) => Promise<R[]>,
  lost: (input: string, message: string) => R,
) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const [state, setState] = useState<BulkJobState<R>>(IDLE);
  const run = useRef({ stop: false, unsent: [] as string[] });
  // Leaving the screen stops the run too; the call under way still finishes on the server.
  useEffect(
    () => () => {
      run.current.stop = true;
    },
    [],
  );

  const start = async (inputs: readonly string[]): Promise<BulkJobState<R>> => {
    const current = { stop: false, unsent: [...inputs] };
    run.current = current;
    let results: R[] = [];
    let haltedBy: string | null = null;
    setState({ ...IDLE, phase: 'running', total: inputs.length });
    while (current.unsent.length > 0 && !current.stop) {
      const chunk = current.unsent.splice(0, BULK_CHUNK_SIZE);
      let answered: R[];
      try {
        answered = await send(api, chunk);
      } catch (error) {
        haltedBy = serverMessageOf(error);
        // With no answer at all the server may have done some of them: say so rather than guess.
        const message = error instanceof ApiError && error.status === 0 ? NO_ANSWER_FOR_ADDRESS : haltedBy;
        answered = chunk.map((input) => lost(input, message));
        current.stop = true;
      }
      results = [...results, ...answered];
      setState((previous) => ({ ...previous, results }));
    }
    const finished: BulkJobState<R> = {
      phase: 'done',
      total: inputs.length,
      results,
      skipped: [...current.unsent],
      haltedBy,
    };
    setState(finished);
    await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    return finished;
  };

  const stop = () => {
    run.current.stop = true;
    const skipped = [...run.current.unsent];
    setState((previous) => (previous.phase === 'running' ? { ...previous, phase: 'stopping', skipped } : previous));
  };

  return { state, start, stop, reset: () => setState(IDLE) };
}
