/**
 * Runs a block's runnable commands in bash, as a reader pastes them, against the stack the test started:
 * the page's addresses, placeholders and paths replaced by the test's (one table, below), every curl's
 * status checked (2xx, or the status a `# answers 404` comment names), every CLI call run as `npm run portal`
 * runs it, and the first failure named with its page and line.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';
import type { DocCommand } from './extract.ts';

export interface Placeholder {
  /** What the page writes. */
  written: RegExp;
  /** What the test puts in its place ($WORK: the test's scratch folder, $PORT: the stack's port,
   * $BLOCK: the block's line, for a name each block makes afresh). */
  becomes: string;
  why: string;
}

/** Extra environment for the commands a pattern matches, with the reason the page gives for it. */
export interface CommandEnvironment {
  matches: RegExp;
  env: Record<string, string>;
  why: string;
}

export interface Runnable {
  command: DocCommand;
  /** The text to execute, when it is not the command's own (a container's CLI call run as npm run portal). */
  runAs?: string;
}

/** A comment naming the status a curl is meant to get (`# answers 404`), for the calls the page shows failing. */
const EXPECTED_STATUS = /\banswers (\d{3})\b/;

const PRELUDE = String.raw`set -eo pipefail
trap 'echo "failed: $DOC_AT" >&2' ERR
curl() {
  local body status
  body=$(mktemp)
  status=$(command curl -sS "$@" -o "$body" -w '%{http_code}') || { rm -f "$body"; echo "$DOC_AT: curl could not reach the portal" >&2; return 1; }
  cat "$body"; rm -f "$body"
  echo "curl $status $DOC_AT" >> "$DOC_LOG"
  if [[ ! $status =~ ^${'$'}{DOC_EXPECT:-2[0-9][0-9]}$ ]]; then
    echo "$DOC_AT: curl answered $status; the page expects ${'$'}{DOC_EXPECT:-2xx}" >&2
    return 1
  fi
}
# npm run portal is npm run cli -w apps/api, which is node src/cli/index.ts in apps/api (the test checks both
# scripts say so): run without npm's own start-up, from the folder npm runs it in, with the variables npm
# gives it (the root script's folder as INIT_CWD).
npm() {
  if [[ $1 == run && $2 == portal && $3 == -- ]]; then
    shift 3
    local code=0
    (cd "$REPO/apps/api" && INIT_CWD=$REPO npm_lifecycle_event=cli node src/cli/index.ts "$@") || code=$?
    echo "portal $code $DOC_AT" >> "$DOC_LOG"
    if [[ $code != 0 ]]; then echo "$DOC_AT: npm run portal -- $* exited $code" >&2; return $code; fi
    return 0
  fi
  echo "$DOC_AT: npm $* is not run by this test" >&2
  return 1
}
`;

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function scriptFor(
  runnables: Runnable[],
  placeholders: Placeholder[],
  environments: CommandEnvironment[],
  values: Record<string, string>,
): string {
  const lines = [PRELUDE];
  for (const { command, runAs } of runnables) {
    let text = runAs ?? command.text;
    for (const { written, becomes } of placeholders) {
      text = text.replace(
        written,
        becomes.replace(/\$(WORK|PORT|BLOCK)\b/g, (_, name: string) => values[name] ?? ''),
      );
    }
    const prefix = environments
      .filter((entry) => entry.matches.test(text))
      .flatMap((entry) => Object.entries(entry.env).map(([name, value]) => `${name}=${quote(value)}`))
      .join(' ');
    const status = EXPECTED_STATUS.exec(command.comment)?.[1];
    lines.push(`DOC_AT=${quote(`${command.page}:${command.line}`)}`);
    if (status) lines.push(`DOC_EXPECT=${status}`);
    lines.push(prefix ? `${prefix} ${text}` : text);
    if (status) lines.push('unset DOC_EXPECT');
  }
  return `${lines.join('\n')}\n`;
}

export interface RunResult {
  code: number | null;
  output: string;
}

export function runBash(script: string, env: NodeJS.ProcessEnv, cwd = REPO_ROOT): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      cwd,
      env: { ...env, REPO: REPO_ROOT, PATH: `${path.dirname(process.execPath)}:${env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
