/**
 * `tsx scripts/run-together.ts <script> ...`: runs the named npm scripts side by side, at most one per core
 * (os.availableParallelism()) at a time, the rest queued in the order given and started as others end. Prints
 * each one's output whole when it ends, so the outputs do not interleave, with how long it took and the CPU-seconds
 * of the processes it waited for (a browser's, torn down unwaited, are partly missed), and fails
 * when any failed.
 *
 * Side by side because ESLint and the type check each keep one core busy and the production check mostly
 * waits on the disk while the topology suite's instances start. At most one per core because more than that
 * only shares the same cores thinner: on a 2-core machine, lint, the type check and three test suites at once
 * made everything slower together, and the web suite's time limits, set for its own work, ran out while the
 * others held the cores. Name the longest scripts first: they start first.
 */
import { availableParallelism } from 'node:os';
import { NODE_COMPILE_CACHE } from '@portal/dev-stack/paths';
import { reapedChildrenCpu } from '@portal/dev-stack/proc-cpu';
import { runCollectingOutput } from './lib/collect-output.ts';

const scripts = process.argv.slice(2);
const cpuOfScriptJustEnded = reapedChildrenCpu();
// Every Node process the scripts start (the suites' servers, the docs test's command-line calls, Playwright's
// workers) reads compiled code from one cache on disk instead of each parsing and compiling the same modules.
process.env.NODE_COMPILE_CACHE ??= NODE_COMPILE_CACHE;
if (scripts.length === 0) throw new Error('usage: tsx scripts/run-together.ts <npm script> ...');

async function run(script: string): Promise<boolean> {
  const started = performance.now();
  const { code, signal, output } = await runCollectingOutput('npm', ['run', script]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const cpuSeconds = (await cpuOfScriptJustEnded()).toFixed(0);
  const outcome = code === 0 ? 'passed' : `FAILED (${signal ?? `exit code ${code}`})`;
  process.stdout.write(`${output}\n# npm run ${script}: ${outcome} in ${seconds} s, ${cpuSeconds} CPU-s\n`);
  return code === 0;
}

const queue = [...scripts];
/** One lane per core: each takes the next script from the queue when its last one ends. */
async function lane(): Promise<boolean[]> {
  const outcomes: boolean[] = [];
  for (let script = queue.shift(); script !== undefined; script = queue.shift()) outcomes.push(await run(script));
  return outcomes;
}

const lanes = Math.min(scripts.length, availableParallelism());
const outcomes = (await Promise.all(Array.from({ length: lanes }, lane))).flat();
process.exit(outcomes.every(Boolean) ? 0 : 1);
