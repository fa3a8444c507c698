// `node apps/web/build/precompress.ts <folder>`: the brotli and gzip twins of a build made with
// PORTAL_PRECOMPRESS=later (packages/dev-stack/src/builds.ts, npm start), in a process of its own.
import { precompress } from './production-assets.ts';

const outDir = process.argv[2];
if (!outDir) throw new Error('usage: node apps/web/build/precompress.ts <build folder>');
await precompress(outDir);
