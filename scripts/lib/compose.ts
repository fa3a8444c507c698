/**
 * deploy/compose.yaml read as `docker compose` would read it with the settings of deploy/compose.env.example:
 * variables interpolated, YAML merge keys (<<) resolved. The linter (dclint: the Compose Specification's JSON
 * schema plus its best-practice rules) reads the interpolated text, so a `${PORT:-8080}` is checked as 8080.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DCLinter } from 'dclint';
import { parse, type CollectionTag } from 'yaml';
import { REPO_ROOT } from '@portal/dev-stack';

export const DEPLOY_DIR = path.join(REPO_ROOT, 'deploy');

/** KEY=value lines (comments and blank lines skipped), as docker compose reads an env file. */
export function readEnvFile(file: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) values[match[1]!] = match[2]!;
  }
  return values;
}

/** Compose's interpolation: $VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?message}, ${VAR?message}, $$. */
export function interpolate(text: string, values: Record<string, string>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])((?:[^}]|\}(?!\s*$))*?))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/gm,
    (whole, braced?: string, colon?: string, operator?: string, argument?: string, bare?: string) => {
      if (whole === '$$') return '$';
      const name = braced ?? bare ?? '';
      const value = values[name];
      const missing = value === undefined || (colon === ':' && value === '');
      if (operator === '?' && missing) throw new Error(`${name} is required: ${argument}`);
      if (operator === '-' && missing) return argument ?? '';
      return value ?? '';
    },
  );
}

/** The parts of a service the deploy checks read. */
export interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string; target?: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  restart?: string;
  healthcheck?: { test?: string[]; disable?: boolean };
  read_only?: boolean;
  cap_drop?: string[];
  stop_grace_period?: string;
  profiles?: string[];
  volumes?: string[];
  ports?: string[];
  secrets?: { source: string; target: string }[];
}

export interface ComposeFile {
  services: Record<string, ComposeService | undefined>;
}

/** Compose's merge tags for override files: the tagged value replaces, or removes, the one it overrides. */
const COMPOSE_TAGS: CollectionTag[] = (['seq', 'map'] as const).flatMap((collection) =>
  ['!override', '!reset'].map((tag) => ({ tag, collection, resolve: (value: unknown) => value })),
);

export function readCompose(file: string, values: Record<string, string>): ComposeFile {
  const text = interpolate(readFileSync(file, 'utf8'), values);
  return parse(text, { merge: true, customTags: COMPOSE_TAGS }) as ComposeFile;
}

/**
 * dclint on the interpolated files. Its ordering rules are off (services read in the order they start, keys
 * grouped by purpose); every other finding, warning or error, is a problem.
 */
export async function lintCompose(files: string[], values: Record<string, string>): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-compose-lint-'));
  try {
    const copies: string[] = [];
    for (const file of files) {
      const copy = path.join(dir, path.basename(file));
      await writeFile(copy, interpolate(readFileSync(file, 'utf8'), values));
      copies.push(copy);
    }
    const linter = new DCLinter({
      rules: {
        'service-keys-order': 0,
        'services-alphabetical-order': 0,
        'top-level-properties-order': 0,
        // An override file (compose.tls.yaml) takes its project name from the file it extends.
        'require-project-name-field': 0,
        'require-quotes-in-ports': [2, { quoteType: 'single' }],
        // Both on purpose: `image` is the registry's tag to pull, `build` makes that tag from this checkout
        // when it is not there (deploy/README.md, "One host").
        'no-build-and-image': 0,
      },
      quiet: false,
      debug: false,
      exclude: [],
    });
    return linter
      .lintFiles(copies, false)
      .flatMap((result) =>
        result.messages.map(
          (message) => `${path.basename(result.filePath)}:${message.line}: ${message.message} (${message.rule})`,
        ),
      );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
