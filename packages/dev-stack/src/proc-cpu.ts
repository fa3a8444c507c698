import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** The clock ticks /proc counts CPU time in, per second (CLK_TCK; 100 on Linux unless said otherwise). */
export const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/**
 * The fields of a /proc/<pid>/stat line after the command name (which may hold spaces), so that the line's
 * field n (counted from 1, as proc(5) does) is at index n - 3: utime 14 → 11, cutime 16 → 13.
 */
export function statFieldsAfterName(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU-seconds of the child processes this process has waited for (and of the children they waited for), from
 * Linux's /proc/self/stat (cutime and cstime). A runner that reads it as each child is reaped gets that child's
 * CPU as the rise since its last reading, whatever ran beside it. Returns 0 where /proc is not there. Processes
 * nobody waits for (a browser's, torn down at the end) are not counted.
 */
export function reapedChildrenCpu(): () => Promise<number> {
  let lastRead = 0;
  return async () => {
    const stat = await readFile('/proc/self/stat', 'utf8').catch(() => undefined);
    if (!stat) return 0;
    const fields = statFieldsAfterName(stat);
    const total = (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
    const rise = total - lastRead;
    lastRead = total;
    return rise;
  };
}
