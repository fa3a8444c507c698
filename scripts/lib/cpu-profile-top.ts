/**
 * The frames a V8 CPU profile (`node --cpu-prof`) spent most of its own time in (self time, the flame graph's
 * widest leaves), merged by function and place: `tsx scripts/lib/cpu-profile-top.ts <file.cpuprofile> [N]`.
 * What docs/benchmarks.md keeps of a profile, since the profile itself is megabytes. `--last S` counts only
 * the last S seconds (a benchmark's load, without the start-up before it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** `lastSeconds`: only the profile's last seconds (the load, not the start-up before it). */
export function topSelfFrames(profileFile: string, count = 10, lastSeconds = Infinity) {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<string, number>();
  let totalUs = 0;
  const endUs = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  let atUs = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    atUs += delta;
    if (endUs - atUs > lastSeconds * 1_000_000) return;
    const frame = byId.get(id)!.callFrame;
    const place = frame.url
      ? `${frame.url.replace(/^.*node_modules\//, '').replace(/^.*\/(apps|packages)\//, '$1/')}:${frame.lineNumber + 1}`
      : '';
    const key = `${frame.functionName || '(anonymous)'} ${place}`.trim();
    selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
    totalUs += delta;
  });
  const idleKeys = new Set(['(idle)', '(program)']);
  const busyUs = [...selfUs].filter(([key]) => !idleKeys.has(key)).reduce((sum, [, us]) => sum + us, 0);
  const rows = [...selfUs]
    .filter(([key]) => key !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, us]) => ({ frame: key, selfMs: us / 1000, share: us / busyUs }));
  return { totalMs: totalUs / 1000, busyMs: busyUs / 1000, rows };
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('cpu-profile-top.ts')) {
  const lastIndex = process.argv.indexOf('--last');
  const lastSeconds = lastIndex === -1 ? Infinity : Number(process.argv[lastIndex + 1]);
  const [file, count] = process.argv
    .slice(2)
    .filter((_arg, index, all) => all[index - 1] !== '--last' && _arg !== '--last');
  if (!file) {
    process.stderr.write('usage: tsx scripts/lib/cpu-profile-top.ts <file.cpuprofile> [N]\n');
    process.exit(64);
  }
  const { busyMs, rows } = topSelfFrames(file, Number(count ?? 10), lastSeconds);
  process.stdout.write(
    `${path.basename(file)}${Number.isFinite(lastSeconds) ? `, last ${lastSeconds} s` : ''}: ${busyMs.toFixed(0)} ms busy (not idle, not (program))\n`,
  );
  process.stdout.write('| # | Self ms | Share of busy | Frame |\n| --- | --- | --- | --- |\n');
  rows.forEach((row, index) =>
    process.stdout.write(
      `| ${index + 1} | ${row.selfMs.toFixed(0)} | ${(row.share * 100).toFixed(1)} % | \`${row.frame}\` |\n`,
    ),
  );
}
