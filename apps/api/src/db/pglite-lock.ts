import { open, readFile, rm } from 'node:fs/promises';

export class DatabaseInUseError extends Error {}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * PGlite is one process's database: a second process opening the same folder (the CLI beside a running
 * server) would corrupt it. A lock file with the owner's pid refuses that with a clear message; a lock
 * left by a process that no longer runs is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockFile = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockFile, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(await readFile(lockFile, 'utf8').catch(() => ''));
      if (owner && owner !== process.pid && isRunning(owner)) {
        throw new DatabaseInUseError(
          `The embedded database in ${dataDir} is in use by process ${owner} (a running server?). ` +
            'Stop it first, or use PostgreSQL (DATABASE_URL) to run the CLI beside the server.',
        );
      }
      await rm(lockFile, { force: true });
    }
  }
  throw new DatabaseInUseError(`Could not lock the embedded database in ${dataDir}`);
}
