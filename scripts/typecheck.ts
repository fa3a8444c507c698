/**
 * `npm run typecheck [-- <project> ...]`: the type check of every TypeScript project in the repository (or of
 * those named), by TypeScript 7's compiler. TypeScript 7 is the native port of the same checker and checks
 * these projects in a third of the time TypeScript 6 took; TypeScript 6 stays installed as `typescript`
 * because ESLint's parser and dependency-cruiser use its JavaScript API, which TypeScript 7 does not have
 * (decision 0131). Both come from the lockfile; `npx tsc` may be either, so the check is run from here.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { TYPESCRIPT_PROJECTS } from './lib/typescript-projects.ts';

const compilerPackage = createRequire(import.meta.url).resolve('typescript7/package.json');
const compiler = path.join(path.dirname(compilerPackage), 'bin', 'tsc');
const named = process.argv.slice(2);
const unknown = named.filter((project) => !TYPESCRIPT_PROJECTS.includes(project));
if (unknown.length > 0)
  throw new Error(`not a TypeScript project here: ${unknown.join(', ')} (known: ${TYPESCRIPT_PROJECTS.join(', ')})`);

let failed = 0;
for (const project of named.length > 0 ? named : TYPESCRIPT_PROJECTS) {
  const result = spawnSync(process.execPath, [compiler, '-p', project], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    process.stderr.write(`typecheck: ${project} has type errors (above)\n`);
  }
}
process.exit(failed === 0 ? 0 : 1);
