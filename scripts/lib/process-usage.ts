/**
 * What a running process uses, from Linux's /proc: CPU time so far, resident memory now and at its peak.
 * The invoice benchmark samples its API instances with it to size their Kubernetes requests and limits.
 */
import { readFileSync } from 'node:fs';
import { statFieldsAfterName, TICKS_PER_SECOND } from '@portal/dev-stack/proc-cpu';

export interface ProcessUsage {
  /** User + system CPU time since the process started. */
  cpuSeconds: number;
  rssMiB: number;
  /** The most resident memory the process has had (VmHWM). */
  peakRssMiB: number;
}

export function processUsage(pid: number): ProcessUsage {
  // utime and stime are the line's fields 14 and 15.
  const fields = statFieldsAfterName(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return {
    cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
    rssMiB: kib('VmRSS') / 1024,
    peakRssMiB: kib('VmHWM') / 1024,
  };
}

/** CPU used between two samples, in cores (1.0 = one core busy the whole time). */
export const coresBetween = (before: ProcessUsage, after: ProcessUsage, seconds: number) =>
  (after.cpuSeconds - before.cpuSeconds) / seconds;
