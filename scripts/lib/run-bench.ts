/** What a benchmark started and must stop, undone last first, whatever way it ends. */
export type Cleanups = (() => Promise<void> | void)[];

async function runCleanups(cleanups: Cleanups) {
  for (const step of cleanups.reverse()) {
    try {
      await step();
    } catch (error) {
      process.stderr.write(`cleanup: ${(error as Error).message}\n`);
    }
  }
  cleanups.length = 0;
}

/**
 * Runs a benchmark's `main` and exits with its code, undoing `cleanups` after it, after a failure, and on
 * Ctrl-C or SIGTERM, so no server, database or nginx is left behind.
 */
export async function runBench(name: string, cleanups: Cleanups, main: () => Promise<number>): Promise<never> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void runCleanups(cleanups).then(() => process.exit(130)));
  }
  let exitCode = 1;
  try {
    exitCode = await main();
  } catch (error) {
    process.stderr.write(`${name} failed: ${(error as Error).stack ?? String(error)}\n`);
  } finally {
    await runCleanups(cleanups);
  }
  process.exit(exitCode);
}
