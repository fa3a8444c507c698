/** Runs `work` on every item, at most `limit` at a time; rejects with the first failure once all have settled. */
export async function forEachConcurrently<T>(
  items: Iterable<T>,
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    for (let next = iterator.next(); !next.done && !failure; next = iterator.next()) {
      try {
        await work(next.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  if (failure) throw failure.error;
}
