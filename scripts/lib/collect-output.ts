import { spawn, type SpawnOptions } from 'node:child_process';

export interface CollectedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What it printed on stdout and stderr, in the order it came. */
  output: string;
}

/**
 * Runs a command with its output kept until it ends, so that several run side by side can each be printed
 * whole instead of interleaved.
 */
export function runCollectingOutput(
  command: string,
  args: string[],
  options: SpawnOptions = {},
): Promise<CollectedRun> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, output: Buffer.concat(output).toString() }));
  });
}
