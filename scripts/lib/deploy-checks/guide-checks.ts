/**
 * deploy/README.md's other commands, held to what they name, as far as a machine without Docker can: every
 * `docker compose` command names services and files compose.yaml has; every `docker build` a Dockerfile stage
 * and build arguments it declares; every CLI command (`apps/api/dist/cli.js …`, `npm run portal -- …`) one the
 * CLI knows; the guide's `envsubst` fills exactly the placeholders the proxy image's entry point fills, and the
 * template has no other; the files the compose walk-through copies and mounts are where compose.yaml reads
 * them. The Kubernetes commands are replayed in kubernetes-guide.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';
import { DEPLOY_DIR, readCompose, readEnvFile } from '../compose.ts';
import { readDockerfile } from '../dockerfile.ts';
import type { Check } from './check.ts';

const GUIDE = path.join(DEPLOY_DIR, 'README.md');

/** The commands of the guide: its sh blocks' lines and its inline `code` spans, `\` line ends joined. */
function guideCommands(text: string): string[] {
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) =>
    match[1]!
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim()),
  );
  const inline = [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!.trim());
  return [...blocks, ...inline].filter(Boolean);
}

export function guideChecks(check: Check) {
  const text = readFileSync(GUIDE, 'utf8');
  const commands = guideCommands(text);
  const values = readEnvFile(path.join(DEPLOY_DIR, 'compose.env.example'));
  const compose = readCompose(path.join(DEPLOY_DIR, 'compose.yaml'), values);
  const services = new Set(Object.keys(compose.services));

  const composeProblems: string[] = [];
  const composeCommands = commands.filter((command) => command.startsWith('docker compose'));
  for (const command of composeCommands) {
    const words = command.split(/\s+/).slice(2);
    for (const [index, word] of words.entries()) {
      if (
        word === '-f' &&
        words[index + 1]?.endsWith('.yaml') &&
        !existsSync(path.join(DEPLOY_DIR, words[index + 1] ?? ''))
      ) {
        composeProblems.push(`${command}: no file ${words[index + 1]}`);
      }
    }
    // compose's own options before the verb, and the value each takes (a file, a profile).
    const takesValue = new Set(['-f', '--file', '--profile', '-p', '--project-name']);
    const verb = words.find(
      (word, index) => !word.startsWith('-') && !takesValue.has(words[index - 1] ?? '') && !word.endsWith('.yaml'),
    );
    for (const [index, word] of words.entries()) {
      const profile = word === '--profile' ? words[index + 1] : undefined;
      const profiles = Object.values(compose.services).flatMap(
        (service) => (service as { profiles?: string[] }).profiles ?? [],
      );
      if (profile && !profiles.includes(profile)) composeProblems.push(`${command}: no service has profile ${profile}`);
    }
    if (!verb || !['up', 'ps', 'run', 'logs', 'restart', 'stop', 'down', 'build'].includes(verb)) {
      composeProblems.push(`${command}: a compose command this check does not know`);
      continue;
    }
    // The service a command names: the first word after the verb that is not an option.
    const after = words.slice(words.indexOf(verb) + 1).filter((word) => !word.startsWith('-'));
    const service = ['run', 'logs', 'restart'].includes(verb) || words.includes('--no-deps') ? after[0] : undefined;
    if (service && !services.has(service)) composeProblems.push(`${command}: no service ${service}`);
  }
  const secretFile = (compose as unknown as { secrets?: Record<string, { file?: string }> }).secrets?.[
    'firebase-service-account'
  ]?.file;
  if (!text.includes('cp compose.env.example .env') || !existsSync(path.join(DEPLOY_DIR, 'compose.env.example'))) {
    composeProblems.push('the walk-through does not copy compose.env.example to .env');
  }
  if (
    !text.includes('cp ../.env.example portal.env') ||
    !readFileSync(path.join(DEPLOY_DIR, 'compose.yaml'), 'utf8').includes('path: portal.env')
  ) {
    composeProblems.push('portal.env: copied by the walk-through and read by compose.yaml');
  }
  if (!secretFile || !text.includes(`cp ~/firebase-service-account.json ${secretFile.replace(/^\.\//, '')}`)) {
    composeProblems.push(`the service-account key: compose reads ${secretFile}, the walk-through must copy it there`);
  }
  check(
    composeCommands.length > 0 && composeProblems.length === 0,
    `guide: its ${composeCommands.length} docker compose commands name services and files compose.yaml has`,
    composeProblems,
  );

  const stages = readDockerfile();
  const stageNames = new Set(stages.map((stage) => stage.name));
  const dockerfile = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
  const declaredArgs = new Set([...dockerfile.matchAll(/^ARG (\w+)/gm)].map((match) => match[1]!));
  const buildProblems: string[] = [];
  const builds = commands.filter((command) => command.startsWith('docker build'));
  for (const command of builds) {
    const target = /--target (\S+)/.exec(command)?.[1];
    if (target && !stageNames.has(target)) buildProblems.push(`${command}: no stage ${target}`);
    for (const [, name] of command.matchAll(/--build-arg (\w+)=/g)) {
      if (!declaredArgs.has(name!)) buildProblems.push(`${command}: the Dockerfile declares no ARG ${name}`);
    }
  }
  check(
    builds.length >= 2 && buildProblems.length === 0,
    `guide: its ${builds.length} docker build commands name Dockerfile stages and arguments that exist`,
    buildProblems,
  );

  const usage = [
    ...readFileSync(path.join(REPO_ROOT, 'apps/api/src/cli/usage.ts'), 'utf8').matchAll(
      /(?:^|`) {2}(\w[\w-]*(?: [a-z][\w-]*)?)/gm,
    ),
  ].map((match) => match[1]!);
  const cliProblems: string[] = [];
  const cliCalls = commands.flatMap((command) =>
    [...command.matchAll(/(?:cli\.js|npm run portal --) ([a-z][\w-]*(?: [a-z][\w-]*)?)/g)].map((match) => match[1]!),
  );
  for (const call of cliCalls) {
    const [group] = call.split(' ');
    if (!usage.some((known) => known === call || known === group)) cliProblems.push(`no CLI command "${call}"`);
  }
  check(
    cliCalls.length > 0 && cliProblems.length === 0,
    `guide: its ${cliCalls.length} CLI calls are commands the CLI has`,
    cliProblems,
  );

  const placeholders = (source: string) =>
    [...new Set([...source.matchAll(/\$\{?(PORTAL_[A-Z_]+)\}?/g)].map((m) => m[1]!))].sort();
  const guideList = /envsubst '([^']+)'/.exec(text)?.[1] ?? '';
  const entrypointList =
    /envsubst '([^']+)'/.exec(readFileSync(path.join(DEPLOY_DIR, 'nginx/entrypoint.sh'), 'utf8'))?.[1] ?? '';
  const template = placeholders(readFileSync(path.join(DEPLOY_DIR, 'nginx/portal.conf.template'), 'utf8'));
  const filled =
    placeholders(guideList).join() === placeholders(entrypointList).join() &&
    placeholders(guideList).join() === template.join();
  check(
    filled,
    `guide: its envsubst fills the template's placeholders, the same the proxy image fills (${template.length})`,
    filled
      ? []
      : [
          `guide: ${placeholders(guideList).join(' ')}`,
          `entrypoint: ${placeholders(entrypointList).join(' ')}`,
          `template: ${template.join(' ')}`,
        ],
  );

  const unit = /ExecStart=\/usr\/bin\/node (.+)$/m.exec(text)?.[1];
  const runtime = stages.find((stage) => stage.name === 'runtime');
  const imageCommand = runtime ? [...(runtime.entrypoint ?? []).slice(1), ...(runtime.cmd ?? [])].join(' ') : '';
  check(
    unit === imageCommand,
    `guide: the systemd unit starts the server as the image does (node ${imageCommand})`,
    unit === imageCommand ? [] : [`unit: ${unit}`],
  );
}
