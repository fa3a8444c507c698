import type { UseMutationOptions } from '@tanstack/react-query';

/**
 * What a screen may add to a feature's query (refetch rules, placeholder data…) without restating its key
 * or fetcher, which stay in the feature's `api/` file.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any function that builds query options
export type QueryConfig<TOptions extends (...args: any[]) => unknown> = Omit<
  ReturnType<TOptions>,
  'queryKey' | 'queryFn'
>;

/** Likewise for a mutation: callbacks and options, never the mutation function itself. */
export type MutationConfig<TVariables, TData = void> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;
