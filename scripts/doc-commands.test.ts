// Every command the operator-facing pages show is run or checked, so a page that drifts from the code fails
// `npm test`: README.md, deploy/README.md, docs/operations.md and docs/product/*.md, read at run time (a new
// block is covered the day it is written). How each kind of command is treated: scripts/lib/doc-commands/.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  findFreePort,
  freshDatabaseBeside,
  REPO_ROOT,
  startStack,
  testDatabaseUrl,
  type Stack,
} from '@portal/dev-stack';
import { eInvoiceFixturePath } from '@portal/dev-stack/e-invoice-samples';
import { classify, newContext } from './lib/doc-commands/classify.ts';
import { blocksOf, commandPages, commandsOf, type DocBlock, type DocCommand } from './lib/doc-commands/extract.ts';
import {
  runBash,
  scriptFor,
  type CommandEnvironment,
  type Placeholder,
  type Runnable,
} from './lib/doc-commands/run.ts';

/** npm start's demo SCIM token (scripts/start.ts), which the pages' curl examples carry. */
const DEMO_SCIM_TOKEN = 'demo-scim-token-for-npm-start-only-0123456789';

/**
 * The files a reader brings, made in a folder inside the checkout and named relative to the checkout's root,
 * where the pages' commands are typed: so a CLI that reads them from another folder fails. Under `.data/`
 * (npm start's, ignored by git), not a new top-level folder the README's layout check would meet mid-run.
 */
const READER_FILES = path.join('.data', `doc-commands-${process.pid}`);

const PLACEHOLDERS: Placeholder[] = [
  { written: /https:\/\/portal\.example\.com/g, becomes: 'http://127.0.0.1:$PORT', why: "the operator's host" },
  { written: /\b(?:localhost|127\.0\.0\.1):8080\b/g, becomes: '127.0.0.1:$PORT', why: "npm start's port" },
  // The guide's ways to add the first administrator are alternatives: each block adds its own.
  { written: /\byou@example\.com\b/g, becomes: 'you-$BLOCK@example.com', why: 'the operator, once per block' },
  { written: /\/secure\/portal-keys\b/g, becomes: '$WORK/portal-keys', why: 'a new owner-only folder' },
  { written: /\/backups\/portal\b/g, becomes: '$WORK/backups', why: "the operator's backup location" },
  { written: /(?<=\s)\[([^\]]+)\](?=\s|$)/g, becomes: '$1', why: 'optional parts are run too' },
  { written: /(?<=\s)invoice\.pdf\b/g, becomes: `${READER_FILES}/invoice.pdf`, why: "the reader's PDF" },
  { written: /(?<=\s)xrechnung\.xml\b/g, becomes: `${READER_FILES}/xrechnung.xml`, why: "the reader's e-invoice" },
  { written: /(?<=\s)\.\/invoices\b/g, becomes: `${READER_FILES}/invoices`, why: "the reader's folder" },
];

function pageCommands() {
  return commandPages().flatMap((page) =>
    blocksOf(page).map((block) => {
      const context = newContext();
      return {
        block,
        commands: commandsOf(block).map((command) => ({ command, verdict: classify(command.text, context) })),
      };
    }),
  );
}

describe('the docs’ command blocks are read as a reader copies them', () => {
  const block = (text: string, extra: Partial<DocBlock> = {}): DocBlock => ({
    page: 'page.md',
    line: 10,
    text,
    inline: false,
    ...extra,
  });

  test('a command continues over a \\ line end and an open quote, and keeps its trailing comment', () => {
    const commands = commandsOf(
      block('a --x \\\n  --y   # first\n\nb -d \'{"k":\n  1}\'   # second\n# a comment line\nc'),
    );
    assert.deepEqual(
      commands.map((command: DocCommand) => [command.line, command.text, command.comment]),
      [
        [10, 'a --x    --y', 'first'],
        [13, 'b -d \'{"k":\n  1}\'', 'second'],
        [16, 'c', ''],
      ],
    );
  });

  test('fenced sh, bash and console blocks and inline curl spans are found; other fences are not', () => {
    const markdown = [
      '```sh',
      'one',
      '```',
      '```yaml',
      'curl: not a command',
      '```',
      '<!-- doc-command: not run, because it is the',
      '     operator’s own -->',
      '```console',
      '$ two',
      '```',
      'Call `curl -s localhost:8080/api/version` to see it.',
    ].join('\n');
    const found = blocksOf('x.md', markdown);
    assert.deepEqual(
      found.map(({ line, text, exemption, inline }) => ({ line, text, exemption, inline })),
      [
        { line: 2, text: 'one', exemption: undefined, inline: false },
        { line: 10, text: 'two', exemption: 'it is the operator’s own', inline: false },
        { line: 12, text: 'curl -s localhost:8080/api/version', exemption: undefined, inline: true },
      ],
    );
  });

  test('a curl must answer 2xx, or the status its comment names', async () => {
    const server = createServer((request, response) => {
      response.statusCode = request.url === '/missing' ? 404 : 200;
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = String((server.address() as AddressInfo).port);
    const work = mkdtempSync(path.join(os.tmpdir(), 'portal-doc-curl-'));
    const run = (text: string) =>
      runBash(
        scriptFor(
          commandsOf(block(text)).map((command) => ({ command })),
          PLACEHOLDERS,
          [],
          { PORT: port, WORK: work },
        ),
        { ...process.env, DOC_LOG: path.join(work, 'ran.log') },
      );
    try {
      assert.equal((await run('curl -s localhost:8080/found')).code, 0);
      assert.equal((await run('curl -s localhost:8080/missing   # answers 404')).code, 0);
      const refused = await run('curl -s localhost:8080/missing');
      assert.notEqual(refused.code, 0);
      assert.match(refused.output, /page\.md:10: curl answered 404; the page expects 2xx/);
    } finally {
      server.close();
      rmSync(work, { recursive: true, force: true });
    }
  });

  test('a command no rule knows is unclassified, and so fails the test', () => {
    const verdict = classify('rm -rf /srv/portal', newContext());
    assert.equal(verdict.kind, 'unclassified');
    assert.match(verdict.problems[0]!, /no rule for this command/);
  });

  test('container commands are held to the files they name', () => {
    const problems = (command: string) => classify(command, newContext()).problems;
    assert.deepEqual(problems('docker compose --profile backup run --rm backup'), []);
    assert.match(problems('docker compose run --rm apii true').join(), /no compose service apii/);
    assert.match(problems('docker build --target proxi -t parcel-portal-proxy:1 .').join(), /no stage proxi/);
    assert.match(
      problems('docker build -t r/parcel-portal:1 .').join(),
      /stage proxy is the image parcel-portal-proxy/,
    );
    assert.match(problems('kubectl -n parcel-portal wait job/portal-migrate-0.0.1').join(), /not in the rendered/);
    assert.match(
      problems("envsubst '$PORTAL_LISTEN' < t > o").join(),
      /leaves \$\{PORTAL_WEB_ROOT\} of the template unfilled/,
    );
    const exec = classify(
      'kubectl -n parcel-portal exec deployment/portal-api -c api -- node apps/api/dist/cli.js users list',
      newContext(),
    );
    assert.equal(exec.runAs, 'npm run portal -- users list');
  });
});

describe('every command the docs show', () => {
  const all = pageCommands();

  test('is run, checked against the files it names, or exempted by its page with a reason', () => {
    const problems = all.flatMap(({ block, commands }) =>
      block.exemption
        ? []
        : commands.flatMap(({ command, verdict }) =>
            verdict.problems.map((problem) => `${command.page}:${command.line}: ${problem}`),
          ),
    );
    assert.deepEqual(problems, []);
    const counts = new Map<string, number>();
    for (const { block, commands } of all) {
      for (const { verdict } of commands) {
        const kind = block.exemption ? 'exempt' : verdict.runAs ? 'container, CLI run here' : verdict.kind;
        counts.set(kind, (counts.get(kind) ?? 0) + 1);
      }
    }
    console.log(`doc commands: ${[...counts].map(([kind, count]) => `${count} ${kind}`).join(', ')}`);
    for (const { block } of all.filter(({ block }) => block.exemption)) {
      console.log(`exempt: ${block.page}:${block.line}: ${block.exemption}`);
    }
    assert.ok(all.length >= 10, `only ${all.length} command blocks found`);
  });

  test("npm run portal is the API workspace's CLI, as the runner runs it", () => {
    const root = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const api = JSON.parse(readFileSync(path.join(REPO_ROOT, 'apps/api/package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    assert.equal(root.scripts.portal, 'npm run cli -w apps/api --silent --');
    assert.equal(api.scripts.cli, 'node src/cli/index.ts');
    assert.match(readFileSync(path.join(REPO_ROOT, 'scripts/start.ts'), 'utf8'), new RegExp(DEMO_SCIM_TOKEN));
  });

  describe('run against a started stack', () => {
    let stack: Stack;
    let work: string;
    let env: NodeJS.ProcessEnv;
    const apiLog: string[] = [];

    before(async () => {
      work = mkdtempSync(path.join(os.tmpdir(), 'portal-doc-commands-'));
      const files = path.join(REPO_ROOT, READER_FILES);
      mkdirSync(path.join(files, 'invoices'), { recursive: true });
      copyFileSync(eInvoiceFixturePath('plain.pdf'), path.join(files, 'invoice.pdf'));
      copyFileSync(eInvoiceFixturePath('xrechnung-cii.xml'), path.join(files, 'xrechnung.xml'));
      copyFileSync(eInvoiceFixturePath('plain.pdf'), path.join(files, 'invoices', 'DOCDIR0001.pdf'));
      const databaseUrl = await freshDatabaseBeside(testDatabaseUrl(), 'doc_commands');
      const port = await findFreePort();
      const serverEnv = {
        DATABASE_URL: databaseUrl,
        SCIM_TOKEN: DEMO_SCIM_TOKEN,
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: '0',
      };
      stack = await startStack({
        port,
        emulatorPort: await findFreePort(),
        dataDir: path.join(work, 'data'),
        env: serverEnv,
        log: (line) => apiLog.push(line),
        onApiExit: (code) => apiLog.push(`the API exited by itself (exit code ${code})`),
      });
      // The CLI reads the server's environment (docs/operations.md).
      env = {
        ...process.env,
        ...serverEnv,
        DATA_DIR: path.join(work, 'data'),
        FIREBASE_PROJECT_ID: 'demo-parcel-portal',
        FIREBASE_AUTH_EMULATOR_HOST: stack.emulator.host,
        DOC_LOG: path.join(work, 'ran.log'),
        WORK: work,
      };
      RESTORE_TARGET.env.DATABASE_URL = await freshDatabaseBeside(testDatabaseUrl(), 'doc_commands_restored');
      RESTORE_TARGET.env.DATA_DIR = path.join(work, 'restored');
      for (const [name, file] of Object.entries(BACKUP_KEYS.env))
        BACKUP_KEYS.env[name] = path.join(work, 'portal-keys', file);
      values = { WORK: work, PORT: String(port) };
    });

    after(async () => {
      await stack?.stop();
      rmSync(path.join(REPO_ROOT, READER_FILES), { recursive: true, force: true });
      if (work) rmSync(work, { recursive: true, force: true });
    });

    let values: Record<string, string> = {};
    const runnableBlocks = () =>
      all
        .filter(({ block }) => !block.exemption)
        .map(({ block, commands }) => ({
          block,
          runnables: commands
            .filter(({ verdict }) => verdict.kind === 'run' || verdict.runAs)
            .map(({ command, verdict }): Runnable => ({ command, ...(verdict.runAs ? { runAs: verdict.runAs } : {}) })),
        }))
        .filter(({ runnables }) => runnables.length > 0);

    test('each block’s runnable commands succeed, in order, as written', async () => {
      const failures: string[] = [];
      for (const { block, runnables } of runnableBlocks()) {
        const script = scriptFor(runnables, PLACEHOLDERS, [BACKUP_KEYS, RESTORE_TARGET], {
          ...values,
          BLOCK: String(block.line),
        });
        const { code, output } = await runBash(script, env);
        if (code !== 0)
          failures.push(
            `${block.page}:${block.line} (exit ${code}):\n${output.trim().split('\n').slice(-12).join('\n')}`,
          );
      }
      const ran = readFileSync(env.DOC_LOG!, 'utf8').trim().split('\n');
      console.log(
        `doc commands run against the stack: ${ran.filter((l) => l.startsWith('curl')).length} curl calls, ${ran.filter((l) => l.startsWith('portal')).length} CLI calls`,
      );
      assert.deepEqual(
        failures,
        [],
        apiLog
          .filter((line) => !/"level":30/.test(line) || /draining|signal|exit/i.test(line))
          .slice(-20)
          .join('\n'),
      );
    });
  });
});

/** The backup commands read the keys `backup-keys` made, from the variables docs/operations.md names. */
const BACKUP_KEYS: CommandEnvironment = {
  matches: /portal -- (backup|verify|restore) /,
  env: {
    BACKUP_RECIPIENT_FILE: 'backup-recipient.txt',
    BACKUP_SIGNING_KEY_FILE: 'backup-signing-key.pem',
    BACKUP_IDENTITY_FILE: 'backup-identity.txt',
    BACKUP_VERIFY_KEY_FILE: 'backup-verify-key.pem',
  },
  why: 'the keys backup-keys made',
};

/** `restore` goes into an empty database and store, as its line says: a second database and data folder. */
const RESTORE_TARGET: CommandEnvironment = {
  matches: /portal -- restore /,
  env: {},
  why: 'restore refuses a database or store that is not empty',
};
