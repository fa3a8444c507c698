/**
 * What the test does with each documented command. Four answers, and no fifth: a command none of them knows
 * fails the test, so a new kind of command in the docs is taught here rather than skipped.
 *
 * - `run`: executed against the stack the test started (curl, the CLI, shell assignments, `node -p`).
 * - `container`: docker, docker compose and kubectl, which CI cannot run: checked against the files they name
 *   (the Dockerfile's stages and build arguments, the compose services and profiles, the Kubernetes folders
 *   and the objects they render). The portal's CLI inside a container is also run, here, as `npm run portal`.
 * - `host`: a step on the operator's own machine (copying a settings file, a systemd reload, envsubst of the
 *   nginx template): the repository paths and template placeholders it names are checked.
 * - `setup`: installing, building, starting or testing the whole project: the script or file it names exists
 *   and, for the set-up line and the test command, is what `.ci/run` runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';
import { readCompose, readEnvFile, DEPLOY_DIR } from '../compose.ts';
import { readDockerfile } from '../dockerfile.ts';
import { buildKustomization, readManifests, type KubernetesObject } from '../kubernetes.ts';
import { simpleCommands, substitutions, words } from './extract.ts';

export type Kind = 'run' | 'container' | 'host' | 'setup';

export interface Verdict {
  kind: Kind | 'unclassified';
  /** What was checked without running it, one line each. */
  checked: string[];
  problems: string[];
  /** The command to execute in its place: the CLI call a container command makes, run through `npm run portal`. */
  runAs?: string;
}

/** What a block's earlier commands left behind, for the later ones to be checked against. */
export interface BlockContext {
  cwd: string;
  images: Set<string>;
}

export const newContext = (): BlockContext => ({ cwd: REPO_ROOT, images: new Set() });

const ORDER: Verdict['kind'][] = ['run', 'setup', 'host', 'container', 'unclassified'];

/** A crontab line (`m h dom mon dow user command`): its command is what is checked. */
const CRONTAB = /^(?:\S+\s+){5}root\s+/;

export function classify(command: string, context: BlockContext): Verdict {
  const line = command.replace(CRONTAB, '');
  const parts = [...simpleCommands(line), ...substitutions(line).flatMap(simpleCommands)];
  const verdicts = parts.map((part) => classifySimple(part, context));
  const kind = verdicts.map((verdict) => verdict.kind).reduce((a, b) => (ORDER.indexOf(a) > ORDER.indexOf(b) ? a : b));
  const runAs = verdicts.find((verdict) => verdict.runAs)?.runAs;
  return {
    kind,
    checked: verdicts.flatMap((verdict) => verdict.checked),
    problems: verdicts.flatMap((verdict) => verdict.problems),
    ...(runAs ? { runAs } : {}),
  };
}

/** Leading `NAME=value` assignments, values quoted, `( … )` arrays and `$( … )` included. */
export function splitAssignments(simple: string): { assignments: number; rest: string } {
  let rest = simple.trim();
  let assignments = 0;
  for (;;) {
    const name = /^[A-Za-z_][A-Za-z0-9_]*=/.exec(rest);
    if (!name) return { assignments, rest };
    let index = name[0].length;
    let depth = 0;
    let quote: string | undefined;
    for (; index < rest.length; index++) {
      const char = rest[index]!;
      if (quote) {
        if (char === quote) quote = undefined;
      } else if (char === "'" || char === '"') quote = char;
      else if (char === '(') depth++;
      else if (char === ')') depth--;
      else if (/\s/.test(char) && depth === 0) break;
    }
    assignments++;
    rest = rest.slice(index).trim();
  }
}

const ok = (kind: Kind, ...checked: string[]): Verdict => ({ kind, checked, problems: [] });
const unclassified = (what: string): Verdict => ({
  kind: 'unclassified',
  checked: [],
  problems: [
    `${what}: no rule for this command in scripts/lib/doc-commands/classify.ts (run it, check it, or exempt the block in the page)`,
  ],
});

function classifySimple(simple: string, context: BlockContext): Verdict {
  const { rest } = splitAssignments(simple.replace(/\s*[<>]+\s*\S+/g, ''));
  if (rest === '') return ok('run');
  const args = words(rest);
  const [program = '', ...tail] = args;
  switch (program) {
    // Not jq: the set-up line does not install it, and a reader's machine may not have it (`node -p` instead).
    case 'curl':
    case 'echo':
      return ok('run');
    case 'node':
      if (tail[0] === '-p' || tail[0] === '-e') return ok('run');
      if (tail[0] === 'apps/api/dist/cli.js') return cliCall(tail.slice(1), 'node apps/api/dist/cli.js');
      return unclassified(rest);
    case 'git':
      return tail[0] === 'rev-parse' ? ok('run') : unclassified(rest);
    case 'export':
      return ok('run');
    case 'npm':
    case 'npx':
    case 'bash':
      return projectCommand(args, rest);
    case 'docker':
      return docker(tail, context);
    case 'kubectl':
      return kubectl(tail, context);
    default:
      return hostCommand(program, tail, context) ?? unclassified(rest);
  }
}

// --- the project's own scripts ----------------------------------------------------------------------------

const rootPackage = () =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
const ciRun = () => readFileSync(path.join(REPO_ROOT, '.ci/run'), 'utf8');

function projectCommand(args: string[], text: string): Verdict {
  const [program, first, second] = args;
  if (program === 'npm' && first === 'run' && second === 'portal') {
    return args[3] === '--'
      ? ok('run')
      : { ...unclassified(text), problems: [`${text}: npm run portal needs -- before the CLI's words`] };
  }
  const scripts = rootPackage().scripts;
  const problems: string[] = [];
  const checked: string[] = [];
  if (program === 'npm' && (first === 'ci' || first === 'test' || first === 'start')) {
    if (first !== 'ci' && !scripts[first!]) problems.push(`package.json has no "${first}" script`);
    if (first !== 'start' && !ciRun().includes(`npm ${first}`)) problems.push(`.ci/run does not run npm ${first}`);
    checked.push(first === 'start' ? 'package.json has "start"' : `.ci/run runs npm ${first}`);
  } else if (program === 'npm' && first === 'run' && second) {
    if (!scripts[second]) problems.push(`package.json has no "${second}" script`);
    checked.push(`package.json has "${second}"`);
  } else if (program === 'npx' && first === 'tsx' && second) {
    if (!existsSync(path.join(REPO_ROOT, second))) problems.push(`${second} does not exist`);
    const users = [JSON.stringify(scripts), readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8')];
    if (!users.some((text) => text.includes(second)))
      problems.push(`neither package.json nor the Dockerfile runs ${second}`);
    checked.push(`${second} exists and is what the build runs`);
  } else if (program === 'bash' && first?.startsWith('scripts/')) {
    if (!existsSync(path.join(REPO_ROOT, first))) problems.push(`${first} does not exist`);
    if (!ciRun().includes(`bash ${first}`)) problems.push(`.ci/run does not run ${first}`);
    checked.push(`.ci/run runs ${first}`);
  } else {
    return unclassified(text);
  }
  return { kind: 'setup', checked, problems };
}

// --- the CLI in a container --------------------------------------------------------------------------------

function cliCall(cliWords: string[], via: string): Verdict {
  const quoted = cliWords.map((word) => (/^[\w@./:=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`));
  return {
    kind: 'container',
    checked: [`${via} ${cliWords.slice(0, 2).join(' ')} run here as npm run portal`],
    problems: [],
    runAs: `npm run portal -- ${quoted.join(' ')}`,
  };
}

// --- docker --------------------------------------------------------------------------------------------------

const option = (args: string[], ...names: string[]) => {
  const index = args.findIndex((arg) => names.includes(arg));
  return index >= 0 ? args[index + 1] : undefined;
};
const allOptions = (args: string[], name: string) =>
  args.flatMap((arg, index) => (arg === name && args[index + 1] ? [args[index + 1]!] : []));

/** The image names the project builds: the compose services' defaults and the kustomization's `images`. */
const PROJECT_IMAGES = ['parcel-portal', 'parcel-portal-proxy'];

function docker(args: string[], context: BlockContext): Verdict {
  const [sub] = args;
  if (sub === 'compose') return compose(args.slice(1), context);
  if (sub === 'build') {
    const problems: string[] = [];
    const stages = readDockerfile();
    const target = option(args, '--target') ?? stages.at(-1)?.name;
    const stage = stages.find((candidate) => candidate.name === target);
    if (!stage) problems.push(`the Dockerfile has no stage ${target}`);
    for (const buildArg of allOptions(args, '--build-arg')) {
      const name = buildArg.split('=')[0]!;
      if (stage && !stage.args.includes(name)) problems.push(`stage ${target} has no ARG ${name}`);
    }
    const tag = option(args, '-t') ?? '';
    const repository =
      tag
        .replace(/:[^/:]*$/, '')
        .split('/')
        .at(-1) ?? '';
    const expected = target === 'proxy' ? 'parcel-portal-proxy' : 'parcel-portal';
    if (repository !== expected) problems.push(`stage ${target} is the image ${expected}, tagged here ${tag}`);
    if (!existsSync(path.join(context.cwd, args.at(-1) ?? '', 'Dockerfile')))
      problems.push('no Dockerfile in the build context');
    context.images.add(tag);
    return { kind: 'container', checked: [`Dockerfile stage ${target} with its ARGs, image ${expected}`], problems };
  }
  if (sub === 'push') {
    const image = args[1] ?? '';
    return {
      kind: 'container',
      checked: [`${image} built before`],
      problems: context.images.has(image) ? [] : [`pushes ${image}, which no earlier docker build tagged`],
    };
  }
  if (sub === 'run') {
    const image = args.find((arg, index) => index > 0 && !arg.startsWith('-') && !args[index - 1]?.startsWith('-'));
    const name =
      image
        ?.replace(/:[^/:]*$/, '')
        .split('/')
        .at(-1) ?? '';
    return {
      kind: 'container',
      checked: [`image ${image}`],
      problems:
        PROJECT_IMAGES.includes(name) || /^[a-z]+:[\w.-]+$/.test(image ?? '')
          ? []
          : [`runs an image the project does not build: ${image}`],
    };
  }
  return unclassified(`docker ${args.join(' ')}`);
}

const COMPOSE_SUBCOMMANDS = new Set(['up', 'ps', 'run', 'logs', 'stop', 'down', 'pull', 'restart', 'exec', 'config']);

function compose(args: string[], context: BlockContext): Verdict {
  const problems: string[] = [];
  const dir = existsSync(path.join(context.cwd, 'compose.yaml')) ? context.cwd : DEPLOY_DIR;
  const files = allOptions(args, '-f');
  for (const file of files) if (!existsSync(path.join(dir, file))) problems.push(`no compose file ${file}`);
  const values = { ...readEnvFile(path.join(DEPLOY_DIR, 'compose.env.example')), PORTAL_TAG: 'doc' };
  const services = Object.assign(
    {},
    ...(files.length > 0 ? files : ['compose.yaml'])
      .filter((file) => existsSync(path.join(dir, file)))
      .map((file) => readCompose(path.join(dir, file), values).services),
  ) as Record<string, { profiles?: string[] } | undefined>;
  const profiles = new Set(Object.values(services).flatMap((service) => service?.profiles ?? []));
  for (const profile of allOptions(args, '--profile'))
    if (!profiles.has(profile)) problems.push(`no profile ${profile}`);
  const positional = args.filter(
    (arg, index) =>
      !arg.startsWith('-') && !['-f', '--profile', '-v', '-e', '-u', '-w'].includes(args[index - 1] ?? ''),
  );
  const [sub, service] = positional;
  const command = service ? args.slice(args.indexOf(service) + 1) : [];
  if (!sub || !COMPOSE_SUBCOMMANDS.has(sub))
    problems.push(`docker compose ${sub}: not a compose command this check knows`);
  if (service && !services[service]) problems.push(`no compose service ${service}`);
  const checked = [`compose ${sub}${service ? ` of service ${service}` : ''}`];
  if (sub === 'run' && command[0] === 'apps/api/dist/cli.js') {
    return { ...cliCall(command.slice(1), `docker compose run ${service}`), problems };
  }
  return { kind: 'container', checked, problems };
}

// --- kubectl -------------------------------------------------------------------------------------------------

function kubectl(args: string[], context: BlockContext): Verdict {
  const problems: string[] = [];
  const base = existsSync(path.join(context.cwd, 'kubernetes')) ? context.cwd : DEPLOY_DIR;
  const rendered: KubernetesObject[] = buildKustomization(path.join(base, 'kubernetes')).manifests.map((m) => m.object);
  const namespaces = new Set(readManifests('namespace.yaml').map((manifest) => manifest.object.metadata.name));
  const namespace = option(args, '-n');
  if (namespace && !namespaces.has(namespace))
    problems.push(`namespace ${namespace} is not kubernetes/namespace.yaml's`);
  const file = option(args, '-f');
  if (file && !existsSync(path.join(base, file))) problems.push(`no file ${file}`);
  const folder = option(args, '-k');
  if (folder && !existsSync(path.join(base, folder, 'kustomization.yaml')))
    problems.push(`no kustomization in ${folder}`);
  for (const reference of args.filter((arg) => /^(job|deployment|cronjob|statefulset)\//.test(arg))) {
    const [kind, name] = reference.split('/') as [string, string];
    const found = rendered.some((object) => object.kind.toLowerCase() === kind && object.metadata.name === name);
    if (!found) problems.push(`${reference}: not in the rendered kustomization`);
  }
  if (args.includes('secret')) {
    const name = args[args.indexOf('generic') + 1] ?? '';
    if (!JSON.stringify(rendered).includes(`"${name}"`)) problems.push(`secret ${name}: no manifest reads it`);
  }
  const checked = [
    `kubectl ${args
      .filter((arg) => !arg.startsWith('-'))
      .slice(0, 2)
      .join(' ')} against deploy/kubernetes`,
  ];
  const dashdash = args.indexOf('--');
  if (
    args.includes('exec') &&
    dashdash >= 0 &&
    args[dashdash + 1] === 'node' &&
    args[dashdash + 2] === 'apps/api/dist/cli.js'
  ) {
    return { ...cliCall(args.slice(dashdash + 3), 'kubectl exec'), problems, checked: [...checked] };
  }
  return { kind: 'container', checked, problems };
}

// --- the operator's own machine ------------------------------------------------------------------------------

/** A path the repository holds, as the command names it from its folder (the operator's own paths are theirs). */
function repositoryPath(word: string, context: BlockContext): string | undefined {
  if (word.startsWith('~') || word.startsWith('/') || word.startsWith('-') || word.includes('$')) return undefined;
  return path.join(context.cwd, word);
}

function hostCommand(program: string, args: string[], context: BlockContext): Verdict | undefined {
  switch (program) {
    case 'cd': {
      const target = args[0] ?? '';
      const inRepository = target.startsWith('/')
        ? target
            .split('/')
            .map((_, index, parts) => path.join(REPO_ROOT, ...parts.slice(index)))
            .find((candidate) => candidate !== REPO_ROOT && existsSync(candidate))
        : path.join(context.cwd, target);
      if (!inRepository || !existsSync(inRepository)) {
        return { kind: 'host', checked: [], problems: [`cd ${target}: no such folder in the repository`] };
      }
      context.cwd = inRepository;
      return ok('host', `cd ${path.relative(REPO_ROOT, inRepository) || '.'}`);
    }
    case 'cp': {
      const source = repositoryPath(args.filter((arg) => !arg.startsWith('-'))[0] ?? '', context);
      const problems = source && !existsSync(source) ? [`cp: ${path.relative(REPO_ROOT, source)} does not exist`] : [];
      return {
        kind: 'host',
        checked: [`cp from ${source ? path.relative(REPO_ROOT, source) : "the operator's file"}`],
        problems,
      };
    }
    case 'envsubst':
      return envsubst(args);
    case 'mkdir':
    case 'chown':
    case 'chmod':
    case 'tar':
    case 'namei':
    case 'sudo':
    case 'systemctl':
    case 'nginx':
    case 'test':
      // Steps on the operator's own files and services: nothing of the repository to compare them with.
      return ok('host', `${program} on the operator's machine`);
    default:
      return undefined;
  }
}

/** `envsubst '$A $B' < template`: the names are exactly the template's placeholders, so none is left unfilled. */
function envsubst(args: string[]): Verdict {
  const template = readFileSync(path.join(REPO_ROOT, 'deploy/nginx/portal.conf.template'), 'utf8');
  const placeholders = new Set([...template.matchAll(/\$\{(PORTAL_[A-Z_]+)\}/g)].map((match) => match[1]!));
  const named = new Set([...(args[0] ?? '').matchAll(/\$(PORTAL_[A-Z_]+)/g)].map((match) => match[1]!));
  const problems = [
    ...[...placeholders]
      .filter((name) => !named.has(name))
      .map((name) => `envsubst leaves \${${name}} of the template unfilled`),
    ...[...named]
      .filter((name) => !placeholders.has(name))
      .map((name) => `envsubst names $${name}, which the template does not use`),
  ];
  return { kind: 'host', checked: [`envsubst names the template's ${placeholders.size} placeholders`], problems };
}
