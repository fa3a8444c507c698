/**
 * `tsx scripts/build-runtime.ts <folder>`, after `npm run build`: assembles the runtime folder
 * (scripts/lib/runtime-folder.ts) — the image's /app, or what to copy to a plain server. Prints its size.
 */
import path from 'node:path';
import { buildRuntimeFolder } from './lib/runtime-folder.ts';

const target = process.argv[2];
if (!target) {
  console.error('Usage: tsx scripts/build-runtime.ts <folder>   (after npm run build; the folder is emptied first)');
  process.exit(64);
}
const folder = await buildRuntimeFolder(path.resolve(target));
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `runtime folder ${folder.dir}: ${mb(folder.bytes)} MB (${mb(folder.nodeModulesBytes)} MB node_modules), installed in ${folder.installSeconds.toFixed(1)} s`,
);
