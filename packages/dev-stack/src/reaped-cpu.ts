import { readFile } from 'node:fs/promises';

/**
 * CPU-seconds of the child processes this process has waited for (and of the children they waited for), from
 * Linux's /proc/self/stat (cutime and cstime, in clock ticks of 1/100 s). A runner that reads it as each child
 * is reaped gets that child's CPU as the rise since its last reading, whatever ran beside it. Returns 0 where
 * /proc is not there. Processes nobody waits for (a browser's, torn down at the end) are not counted.
 */
export function reapedChildrenCpu(): () => Promise<number> {
  let lastRead = 0;
  return async () => {
    const stat = await readFile('/proc/self/stat', 'utf8').catch(() => undefined);
    if (!stat) return 0;
    // Fields 16 and 17 of the line, counted from its start; the command name before ')' may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const total = (Number(fields[13]) + Number(fields[14])) / 100;
    const rise = total - lastRead;
    lastRead = total;
    return rise;
  };
}
