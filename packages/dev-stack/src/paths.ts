import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * Node's on-disk cache of compiled code (NODE_COMPILE_CACHE, Node 22.1+) for the processes the dev stack
 * starts: a second start of the emulator or the API skips most parsing and compiling.
 */
export const NODE_COMPILE_CACHE = path.join(REPO_ROOT, 'node_modules/.cache/portal-node-compile-cache');
