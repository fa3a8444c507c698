/**
 * `npm run bench:failover [runs]`: the failover drill of the topology suite (packages/dev-stack/src/failover-drill.ts),
 * run `runs` times (default 1), one after the other, printing each run's figures: writes acknowledged, lost and
 * refused, the longest stretch of 503s, and the time until every instance stores an upload again. Needs what
 * `npm run test:topology` needs, and PostgreSQL's server programs (initdb, pg_ctl, pg_basebackup, pg_rewind).
 */
import { buildAll, requireNginx } from '@portal/dev-stack';
import { runFailoverDrill } from '@portal/dev-stack/failover';

requireNginx();
if (!process.env.SKIP_BUILD) buildAll();
const runs = Math.max(1, Math.min(10, Number(process.argv[2] ?? 1) || 1));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
process.stdout.write(
  '| run | uploads | additions | removals | lost | refused (503) | other answers | longest 503 stretch | served again after crash | after promotion | through nginx after promotion | diverged |\n' +
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n',
);
let failed = false;
for (let run = 1; run <= runs; run++) {
  const log: string[] = [];
  const figures = await runFailoverDrill({ log: (line) => log.push(line) }).catch((error: unknown) => {
    process.stdout.write(`${log.slice(-40).join('\n')}\n`);
    throw error;
  });
  const { acknowledged } = figures;
  failed ||= figures.lost.length > 0 || figures.unexpected.length > 0 || figures.diverged.length > 0;
  process.stdout.write(
    `| ${run} | ${acknowledged.uploads} | ${acknowledged.additions} | ${acknowledged.removals} | ${figures.lost.length} | ` +
      `${figures.refused} of ${figures.calls} | ${figures.unexpected.length} | ${seconds(figures.longest503Ms)} | ` +
      `${seconds(figures.recoveredAfterCrashMs)} | ${seconds(figures.recoveredAfterPromotionMs)} | ` +
      `${seconds(figures.servedThroughProxyAfterPromotionMs)} | ` +
      `${figures.diverged.join(', ') || 'none'} |\n`,
  );
  for (const line of [...figures.lost, ...figures.unexpected].slice(0, 20)) process.stdout.write(`  ${line}\n`);
}
process.exit(failed ? 1 : 0);
