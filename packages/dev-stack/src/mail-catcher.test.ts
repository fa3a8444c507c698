// The mail catcher starts with `npm start`, before anything else: what it loads, every start waits for.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const tsx = createRequire(import.meta.url).resolve('tsx');

test('loading the mail catcher does not load mailparser, which only a received mail needs', () => {
  // Every module resolved from here on, CommonJS or ESM, as the loader resolves it.
  const script = `
    import { registerHooks } from 'node:module';
    const resolved = [];
    registerHooks({ resolve(specifier, context, next) { const found = next(specifier, context); resolved.push(found.url); return found; } });
    await import(${JSON.stringify(new URL('./mail-catcher.ts', import.meta.url).href)});
    process.stdout.write(JSON.stringify({
      mailparser: resolved.some((url) => url.includes('/node_modules/mailparser/')),
      smtpServer: resolved.some((url) => url.includes('/node_modules/smtp-server/')),
    }));`;
  const result = spawnSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  // smtp-server is loaded: the check sees the catcher's own imports, so a missing mailparser means something.
  assert.deepEqual(JSON.parse(result.stdout), { mailparser: false, smtpServer: true });
});
