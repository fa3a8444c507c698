/**
 * The Dockerfile read as data (with dockerfile-ast, the parser behind dockerfile-utils' linter): its stages
 * with their base image, environment, user, entry point, command and health check. The deploy checks hold
 * its stages to the portal's rules; the production-install check starts the runtime folder exactly as the
 * runtime stage says (its ENTRYPOINT + CMD, ENV, USER and HEALTHCHECK).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DockerfileParser, type Instruction, type Property } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { REPO_ROOT } from '@portal/dev-stack';

export interface Stage {
  name: string;
  /** The base image with build arguments' defaults filled in, e.g. node:24-bookworm-slim. */
  image: string;
  args: string[];
  env: Record<string, string>;
  labels: Record<string, string>;
  user?: string;
  workdir?: string;
  /** Exec form only; undefined when absent or written in shell form. */
  entrypoint?: string[];
  cmd?: string[];
  healthcheck?: { flags: string[]; command: string[] };
  stopSignal?: string;
  runs: string[];
  copies: string[];
}

export const DOCKERFILE = path.join(REPO_ROOT, 'Dockerfile');

const propertiesOf = (instruction: Instruction) =>
  (instruction as unknown as { getProperties(): Property[] }).getProperties();

/** `--name=value` for each flag of a COPY or HEALTHCHECK (the arguments' content leaves them out). */
const flagsOf = (instruction: Instruction) =>
  (instruction as unknown as { getFlags(): { getName(): string; getValue(): string | null }[] })
    .getFlags()
    .map((flag) => `--${flag.getName()}${flag.getValue() === null ? '' : `=${flag.getValue()}`}`);

function jsonForm(content: string | null): string[] | undefined {
  if (!content?.trim().startsWith('[')) return undefined;
  const parsed: unknown = JSON.parse(content.replace(/\\\r?\n/g, ' '));
  return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : undefined;
}

export function readDockerfile(text = readFileSync(DOCKERFILE, 'utf8')): Stage[] {
  const dockerfile = DockerfileParser.parse(text);
  const globalArgs = new Map<string, string>();
  for (const arg of dockerfile.getInitialARGs()) {
    const property = arg.getProperty();
    if (property) globalArgs.set(property.getName(), property.getValue() ?? '');
  }
  const stages: Stage[] = [];
  let stage: Stage | undefined;
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    const content = instruction.getArgumentsContent() ?? '';
    if (keyword === 'FROM') {
      const from = instruction as unknown as { getBuildStage(): string | null; getImage(): string | null };
      const image = (from.getImage() ?? '').replace(/\$\{(\w+)\}|\$(\w+)/g, (_all, braced?: string, bare?: string) => {
        return globalArgs.get(braced ?? bare ?? '') ?? '';
      });
      stage = {
        name: from.getBuildStage() ?? String(stages.length),
        image,
        args: [],
        env: {},
        labels: {},
        runs: [],
        copies: [],
      };
      stages.push(stage);
      continue;
    }
    if (!stage) continue;
    switch (keyword) {
      case 'ARG':
        stage.args.push(content.split('=')[0]?.trim() ?? '');
        break;
      case 'ENV':
        for (const property of propertiesOf(instruction)) stage.env[property.getName()] = property.getValue() ?? '';
        break;
      case 'LABEL':
        for (const property of propertiesOf(instruction)) stage.labels[property.getName()] = property.getValue() ?? '';
        break;
      case 'USER':
        stage.user = content.trim();
        break;
      case 'WORKDIR':
        stage.workdir = content.trim();
        break;
      case 'ENTRYPOINT':
        stage.entrypoint = jsonForm(content);
        break;
      case 'CMD':
        stage.cmd = jsonForm(content);
        break;
      case 'STOPSIGNAL':
        stage.stopSignal = content.trim();
        break;
      case 'RUN':
        stage.runs.push(content);
        break;
      case 'COPY':
        stage.copies.push([...flagsOf(instruction), content.replace(/\\\r?\n\s*/g, ' ')].join(' '));
        break;
      case 'HEALTHCHECK': {
        const at = content.search(/\bCMD\b/);
        stage.healthcheck = {
          flags: flagsOf(instruction),
          command: at < 0 ? [] : (jsonForm(content.slice(at + 3)) ?? []),
        };
        break;
      }
    }
  }
  return stages;
}

export function stageNamed(stages: Stage[], name: string): Stage {
  const stage = stages.find((candidate) => candidate.name === name);
  if (!stage) throw new Error(`the Dockerfile has no stage "${name}"`);
  return stage;
}

/** dockerfile-utils' validator; every diagnostic, warning or error, counts as a problem. */
export function lintDockerfile(text: string): string[] {
  return validate(text).map((diagnostic) => `line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
}
