// Usage: tsx scripts/with-auth-emulator.ts -- <command> [args...]
// Runs <command> against a fresh Auth emulator on a free port, then stops the emulator and exits with the
// command's exit code. The emulator's output is shown only when it fails to start.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import { findFreePort, startAuthEmulator, type AuthEmulator } from './lib/auth-emulator.ts';

const PROJECT_ID = 'demo-portal-test';
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

async function main(): Promise<number> {
  const [command, ...args] = parseCommand(process.argv.slice(2));
  if (command === undefined) {
    console.error('usage: tsx scripts/with-auth-emulator.ts -- <command> [args...]');
    return 2;
  }

  const workDir = await mkdtemp(path.join(tmpdir(), 'portal-auth-emulator-'));
  let child: ChildProcess | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (child) {
      child.kill(signal);
      return;
    }
    // Interrupted while the emulator starts: no need to wait for it, the library's exit hook kills it.
    rmSync(workDir, { recursive: true, force: true });
    process.exit(signalExitCode(signal));
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, onSignal);

  let emulator: AuthEmulator | undefined;
  try {
    emulator = await startAuthEmulator({ port: await findFreePort(), projectId: PROJECT_ID, workDir });
    console.error(`[with-auth-emulator] FIREBASE_AUTH_EMULATOR_HOST=${emulator.host} (${PROJECT_ID})`);
    child = spawn(command, args, {
      stdio: 'inherit',
      env: { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: emulator.host, FIREBASE_PROJECT_ID: PROJECT_ID },
    });
    return await exitCodeOf(child);
  } catch (error) {
    console.error(`[with-auth-emulator] ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await emulator?.stop();
    await rm(workDir, { recursive: true, force: true });
    for (const signal of FORWARDED_SIGNALS) process.off(signal, onSignal);
  }
}

function parseCommand(argv: string[]): string[] {
  return argv[0] === '--' ? argv.slice(1) : argv;
}

function exitCodeOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(signal ? signalExitCode(signal) : (code ?? 1)));
  });
}

// The shell convention, so callers can tell "interrupted" from "failed".
function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

process.exitCode = await main();
