/**
 * `tsx scripts/run-together.ts <script> ...`: runs the named npm scripts at once, prints each one's output whole
 * when it ends, so the outputs do not interleave, with how long it took, and fails when any failed. For work
 * that leaves a core idle alone: ESLint and the type check each keep one busy; the production check mostly
 * waits on the disk while the topology suite's instances start.
 */
import { runCollectingOutput } from './lib/collect-output.ts';

const scripts = process.argv.slice(2);
if (scripts.length === 0) throw new Error('usage: tsx scripts/run-together.ts <npm script> ...');

async function run(script: string): Promise<boolean> {
  const started = performance.now();
  const { code, signal, output } = await runCollectingOutput('npm', ['run', script]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const outcome = code === 0 ? 'passed' : `FAILED (${signal ?? `exit code ${code}`})`;
  process.stdout.write(`${output}\n# npm run ${script}: ${outcome} in ${seconds} s\n`);
  return code === 0;
}

const outcomes = await Promise.all(scripts.map(run));
process.exit(outcomes.every(Boolean) ? 0 : 1);
